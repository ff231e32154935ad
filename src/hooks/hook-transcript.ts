import type { Turn } from '../context/turn.js';
import { codexHookBlocks, codexTurns } from './codex-transcript.js';
import { claudeCodeHookBlocks, priorContextOf } from './prior-context.js';
import { checkTranscriptPath, transcriptRoot } from './transcript-path.js';
import { readTranscriptTail } from './transcript-tail.js';
import { claudeCodeTurns } from './transcript-turns.js';

export const HOOK_WINDOW_TURNS = 4;

export type TranscriptRead =
  | { ok: true; entries: Record<string, unknown>[]; turns: Turn[]; priorContext: string }
  | { ok: false; reason: string };

const NONE: TranscriptRead = { ok: true, entries: [], turns: [], priorContext: '' };

/**
 * What the hook takes from the harness transcript (push-context §7.4.1): the last 4 turns and
 * the prior context of its own earlier injections, from the newest 2 MB of a checked path.
 */
export function readHookTranscript(rawPath: unknown, harness: string, prompt: string): TranscriptRead {
  if (typeof rawPath !== 'string' || rawPath === '') return NONE;
  const check = checkTranscriptPath(rawPath, transcriptRoot(harness));
  if (!check.ok) return check;
  let entries: Record<string, unknown>[];
  try {
    entries = readTranscriptTail(check.path);
  } catch {
    return { ok: false, reason: 'transcript_unreadable' };
  }
  const codex = harness === 'codex';
  const all = codex ? codexTurns(entries) : claudeCodeTurns(entries);
  // The harness may already have recorded the prompt itself; it is added once, as the newest turn.
  const last = all[all.length - 1];
  if (last && last.role === 'user' && last.text === prompt.trim()) all.pop();
  const turns = all.slice(-HOOK_WINDOW_TURNS);
  const priorContext = priorContextOf(codex ? codexHookBlocks(entries) : claudeCodeHookBlocks(entries));
  return { ok: true, entries, turns, priorContext };
}
