import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { claudeDir, codexDir } from '../harness-dirs.js';

const MAX_TRANSCRIPT_BYTES = 50 * 1024 * 1024;

export type TranscriptCheck = { ok: true; path: string } | { ok: false; reason: string };

/** Where each harness keeps its transcripts; only files below it are ever read. */
export function transcriptRoot(harness: string, env: NodeJS.ProcessEnv = process.env): string {
  return harness === 'codex' ? join(codexDir(env), 'sessions') : join(claudeDir(env), 'projects');
}

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/**
 * A transcript path the hook may read: ends `.jsonl`, a regular file (not a symlink), at most
 * 50 MB, inside the harness's transcript root after resolving every symlinked folder, so a
 * path with `..` or a linked directory cannot reach other files.
 */
export function checkTranscriptPath(raw: string, root: string): TranscriptCheck {
  if (!raw.endsWith('.jsonl')) return { ok: false, reason: 'transcript_not_jsonl' };
  const path = resolve(raw);
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    // No transcript root yet (a harness's first session on this machine): a path below it names
    // a transcript not written yet, not one outside the root.
    return { ok: false, reason: inside(resolve(root), path) ? 'transcript_missing' : 'transcript_outside_root' };
  }
  if (!inside(resolve(root), path) && !inside(realRoot, path)) return { ok: false, reason: 'transcript_outside_root' };
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return { ok: false, reason: 'transcript_missing' };
  }
  if (stat.isSymbolicLink()) return { ok: false, reason: 'transcript_symlink' };
  if (!stat.isFile()) return { ok: false, reason: 'transcript_not_file' };
  if (stat.size > MAX_TRANSCRIPT_BYTES) return { ok: false, reason: 'transcript_too_large' };
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { ok: false, reason: 'transcript_missing' };
  }
  if (!inside(realRoot, real)) return { ok: false, reason: 'transcript_outside_root' };
  return { ok: true, path: real };
}
