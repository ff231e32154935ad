import type { Turn } from '../context/turn.js';
import { CODEX_BLOCK_HINT, codexHookBlock, codexTurn } from './codex-transcript.js';
import { CLAUDE_BLOCK_HINT, claudeCodeHookBlock, priorContextOf } from './prior-context.js';
import { checkTranscriptPath, transcriptRoot } from './transcript-path.js';
import { parseLine, readTranscriptTail } from './transcript-tail.js';
import { claudeCodeTurn, hasUsage } from './transcript-turns.js';

export const HOOK_WINDOW_TURNS = 4;

export type TranscriptRead =
  | { ok: true; usageEntries: Record<string, unknown>[]; turns: Turn[]; priorContext: string }
  | { ok: false; reason: string };

const NONE: TranscriptRead = { ok: true, usageEntries: [], turns: [], priorContext: '' };

type Entry = Record<string, unknown>;

interface Reader {
  turn(e: Entry): Turn | null;
  block(e: Entry): string | null;
  blockHint: string;
  usage(e: Entry): boolean;
}

const READERS: Record<'claude' | 'codex', Reader> = {
  claude: { turn: claudeCodeTurn, block: claudeCodeHookBlock, blockHint: CLAUDE_BLOCK_HINT, usage: hasUsage },
  codex: { turn: codexTurn, block: codexHookBlock, blockHint: CODEX_BLOCK_HINT, usage: () => false },
};

/** The line of `buf` containing byte `at`: [start, end) without its newline. */
function lineAround(buf: Buffer, at: number): [number, number] {
  const end = buf.indexOf(0x0a, at);
  return [buf.lastIndexOf(0x0a, at) + 1, end < 0 ? buf.length : end];
}

/**
 * Hook blocks anywhere in the tail (the dedupe horizon is all of it), found by a byte search for
 * the reader's hint so the tail is never decoded whole; then lines newest → oldest, decoded only
 * until the window turns and the last two usage readings are found.
 */
function scan(buf: Buffer, reader: Reader, wantTurns: number) {
  const blocks: string[] = [];
  const hint = Buffer.from(reader.blockHint);
  for (let at = buf.indexOf(hint); at >= 0; ) {
    const [start, end] = lineAround(buf, at);
    const e = parseLine(buf.toString('utf8', start, end));
    const block = e ? reader.block(e) : null;
    if (block !== null) blocks.push(block);
    at = buf.indexOf(hint, end);
  }
  const turns: Turn[] = [];
  const usage: Entry[] = [];
  let end = buf.length;
  while (end > 0 && (turns.length < wantTurns || usage.length < 2)) {
    const start = buf.lastIndexOf(0x0a, end - 1) + 1;
    const e = start < end ? parseLine(buf.toString('utf8', start, end)) : null;
    end = start - 1;
    if (!e) continue;
    if (turns.length < wantTurns) {
      const t = reader.turn(e);
      if (t) turns.push(t);
    }
    if (usage.length < 2 && reader.usage(e)) usage.push(e);
  }
  return { turns: turns.reverse(), blocks, usage: usage.reverse() };
}

/**
 * What the hook takes from the harness transcript: the last 4 turns and
 * the prior context of its own earlier injections, from the newest 2 MB of a checked path.
 */
export function readHookTranscript(rawPath: unknown, harness: string, prompt: string): TranscriptRead {
  if (typeof rawPath !== 'string' || rawPath === '') return NONE;
  const check = checkTranscriptPath(rawPath, transcriptRoot(harness));
  if (!check.ok) return check;
  let tail: Buffer;
  try {
    tail = readTranscriptTail(check.path);
  } catch {
    return { ok: false, reason: 'transcript_unreadable' };
  }
  // One turn more than the window: the harness may already have recorded the prompt itself.
  const found = scan(tail, READERS[harness === 'codex' ? 'codex' : 'claude'], HOOK_WINDOW_TURNS + 1);
  const all = found.turns;
  const last = all[all.length - 1];
  if (last && last.role === 'user' && last.text === prompt.trim()) all.pop();
  return { ok: true, usageEntries: found.usage, turns: all.slice(-HOOK_WINDOW_TURNS), priorContext: priorContextOf(found.blocks) };
}
