import type { PageIndex } from '../context/page-index.js';
import { pageJson } from '../context/render.js';
import type { Turn } from '../context/turn.js';
import { resolvePointers } from '../context/volunteer.js';
import type { ResolveResult } from '../serve-client/protocol.js';
import { pointerLine, POINTERS_HEADING } from '../turn-context/turn-block.js';

/** The last ≤ 12 user/assistant messages are the reflex's input. */
const REFLEX_MAX_MESSAGES = 12;

export interface ReflexInput {
  messages: readonly Turn[];
  priorContext: string;
  sourceId: string;
  /** `retrieval.reflex.window_turns`. */
  windowTurns: number;
  /** `retrieval.reflex.max_pointers`. */
  maxPointers: number;
  lexicalArms: boolean;
  gazetteer: boolean;
}

const REFLEX_PREAMBLE = [
  POINTERS_HEADING,
  'You referenced entities with existing brain pages. Open the page before relying on',
  'details — do not answer from memory.',
  '',
];

/**
 * The ambient reflex: ungated pointers from the newest messages. At window 1
 * only the current user text is read and a title already in the prior text suppresses too;
 * wider windows use windowed extraction and slug-only suppression.
 */
export function resolveReflex(index: PageIndex, input: ReflexInput): ResolveResult {
  const recent = input.messages.slice(-REFLEX_MAX_MESSAGES);
  const windowOne = input.windowTurns <= 1;
  let turns: Turn[];
  if (windowOne) {
    const current = [...recent].reverse().find((m) => m.role === 'user');
    turns = current ? [current] : [];
  } else turns = recent.slice(-input.windowTurns);
  const pointers = resolvePointers(turns, index, {
    scope: [input.sourceId],
    priorContext: input.priorContext,
    maxPointers: input.maxPointers,
    suppressTitles: windowOne,
    lexicalArms: input.lexicalArms,
    gazetteer: input.gazetteer,
  }).map(pageJson);
  const text = pointers.length === 0 ? '' : [...REFLEX_PREAMBLE, ...pointers.map(pointerLine)].join('\n');
  return { text, pointers };
}
