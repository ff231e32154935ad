import type { PageIndex } from '../context/page-index.js';
import { pageJson } from '../context/render.js';
import type { Turn } from '../context/turn.js';
import { resolvePointers, volunteer } from '../context/volunteer.js';
import type { TurnContextResult } from '../serve-client/protocol.js';
import { fitTurnBlock, type HotFact } from './turn-block.js';

export const TURN_POINTER_CAP = 3;
const TURN_VOLUNTEER_CAP = 3;

export interface TurnContextInput {
  window: readonly Turn[];
  priorContext: string;
  sourceId: string;
  lexicalArms: boolean;
  gazetteer: boolean;
  /** Hot facts of the source, already selected and ordered. */
  facts: readonly HotFact[];
  budgetBytes?: number;
  /** Decide with a remote caller's rights (private pages never resolve). Default false. */
  remote?: boolean;
  /** Slugs already shown in the session: neither pointed at nor volunteered again. */
  shown?: readonly string[];
}

/**
 * Server assembly of the per-turn block, in the request's source with owner
 * scope: ungated pointers (slug-only suppression, cap 3, base confidence), then the gated
 * volunteer decision with the pointers' slugs excluded, then hot facts; rendered and fitted to
 * the byte budget. Pure: logging happens at delivery.
 */
export function assembleTurnContext(index: PageIndex, input: TurnContextInput): TurnContextResult {
  const scope = [input.sourceId];
  const knobs = { scope, remote: input.remote === true, priorContext: input.priorContext, lexicalArms: input.lexicalArms, gazetteer: input.gazetteer };
  const shown = input.shown ?? [];
  const pointers = resolvePointers(input.window, index, { ...knobs, excludeSlugs: [...shown], maxPointers: TURN_POINTER_CAP });
  const volunteered = volunteer(input.window, index, {
    ...knobs,
    excludeSlugs: [...shown, ...pointers.map((p) => p.slug)],
    maxPages: TURN_VOLUNTEER_CAP,
  });
  const fit = fitTurnBlock(
    { pointers: pointers.map(pageJson), volunteered: volunteered.map(pageJson), facts: [...input.facts] },
    input.budgetBytes,
  );
  return {
    text: fit.text,
    pointers: fit.parts.pointers,
    volunteered: fit.parts.volunteered,
    degraded_reason: fit.trimmed ? 'budget_trimmed' : null,
  };
}
