import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import { brainConfig } from '../config/brain-config.js';
import { managedBlock, withManagedBlock, withoutManagedBlock } from '../core-memory/compiled-block.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { BrainstreamError } from '../errors.js';
import { codexDir } from '../harness-dirs.js';
import { recordCompiledFile } from './compiled-registry.js';
import { currentCoreRevision, sessionCoreBlock } from './core-delivery.js';
import { excludeFromGit, isGitTracked } from './git-probe.js';

export const COMPILE_TARGETS = ['codex', 'codex-global', 'hermes', 'claude-code'] as const;
export type CompileTarget = (typeof COMPILE_TARGETS)[number];

/** Targets whose file is the owner's own, never shared: added to `.git/info/exclude` when written. */
const GIT_EXCLUDED_TARGETS: ReadonlySet<CompileTarget> = new Set(['hermes', 'claude-code']);

/** Where a target's instruction file lives (`--out` overrides it). */
export function targetPath(target: CompileTarget, cwd: string, env: Readonly<Record<string, string | undefined>>): string {
  switch (target) {
    case 'codex':
      return join(cwd, 'AGENTS.md');
    case 'codex-global':
      return join(codexDir(env), 'AGENTS.md');
    case 'hermes':
      return join(cwd, '.hermes.md');
    case 'claude-code':
      // Claude Code's personal project memory, read beside CLAUDE.md: the shared CLAUDE.md is
      // usually committed, and core memory is the owner's own.
      return join(cwd, 'CLAUDE.local.md');
  }
}

export interface CompileRequest {
  target: CompileTarget;
  mode: 'include' | 'remove';
  out?: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  now?: Date;
}

export interface CompileResult {
  path: string;
  status: 'written' | 'unchanged' | 'removed';
  revision: string | null;
  chars: number;
  /** `.git/info/exclude` the file was added to (hermes, claude-code), or null. */
  excluded_in: string | null;
  /** `memory.core.enabled`: while false, `--include-core` writes no core: nothing is delivered while core is off. */
  core_enabled: boolean;
}

const FILE_PROBLEM: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a folder on its path is a file',
  // mkdir -p meets a file where a folder of the path should be.
  EEXIST: 'a folder on its path is a file',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
};

/** A file-system failure on the instruction file, as a one-line error naming the file. */
function fileError(action: 'read' | 'write', path: string, err: unknown): BrainstreamError {
  const code = (err as NodeJS.ErrnoException | null)?.code ?? '';
  const problem = FILE_PROBLEM[code] ?? (code || (err instanceof Error ? err.message : String(err)));
  return new BrainstreamError(action === 'read' ? 'file_unreadable' : 'file_unwritable', `cannot ${action} ${path}: ${problem}`, { path });
}

/** The instruction file as it stands, null when there is none yet; a folder (`--out .`) is refused. */
function readInstructionFile(path: string): string | null {
  let stat;
  try {
    stat = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Not there yet (or a file stands where a folder of its path should: writing says so).
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw fileError('read', path, err);
  }
  if (stat.isDirectory()) throw new BrainstreamError('not_a_file', `${path} is a folder: --out names the instruction file to write`, { path });
  if (!stat.isFile()) throw new BrainstreamError('not_a_file', `${path} is not a regular file`, { path });
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw fileError('read', path, err);
  }
}

/** Atomic (temp file + rename) and byte-stable: identical content is not rewritten. */
function writeIfChanged(path: string, before: string | null, text: string): boolean {
  if (before === text) return false;
  const tmp = `${path}.${process.pid}.brainstream.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing was created where the folder is missing or unwritable.
    }
    throw fileError('write', path, err);
  }
  return true;
}

/**
 * Earlier versions kept Claude Code's core in the shared `CLAUDE.md`: a block left there is taken
 * out (the file removed if nothing else was in it), so core lives in one place only.
 */
function removeLegacyClaudeBlock(legacy: string): void {
  const before = readInstructionFile(legacy);
  if (before === null) return;
  let text: string;
  try {
    text = withoutManagedBlock(before, legacy);
  } catch {
    // Damaged markers in the user's own file: leave it as it is.
    return;
  }
  if (text === before) return;
  if (text.trim() === '') rmSync(legacy);
  else writeIfChanged(legacy, before, text);
}

/**
 * `compile-context`: keeps the owner's session block for `caller.source` in a
 * managed block of a static instruction file, or removes it. Core is never written into a
 * git-tracked file (`core_tracked_file_refused`; nothing written) and never while core memory is
 * off (then a block left by an earlier run is removed instead). Each compiled path is recorded in
 * `<home>/compiled.json` for doctor. Only the owner runs it: the `compile_context` operation's
 * access says so (src/ops/operations/compile-context.ts).
 */
export async function compileContext(brain: Brain, caller: Caller, home: string, req: CompileRequest): Promise<CompileResult> {
  const now = req.now ?? new Date();
  const path = req.out === undefined ? targetPath(req.target, req.cwd, req.env) : resolve(req.cwd, req.out);
  const before = readInstructionFile(path);
  if (req.target === 'claude-code' && req.out === undefined) removeLegacyClaudeBlock(join(req.cwd, 'CLAUDE.md'));
  const coreEnabled = memorySettings(brainConfig(brain)).coreEnabled;
  // Nothing is delivered anywhere while core memory is off, so `--include-core` then
  // leaves no core in the file: it succeeds as a removal of any block an earlier run wrote.
  if (req.mode === 'remove' || !coreEnabled) {
    const text = withoutManagedBlock(before ?? '', path);
    const changed = before !== null && text !== before;
    if (changed && text.trim() === '') rmSync(path);
    else if (changed) writeIfChanged(path, before, text);
    recordCompiledFile(home, { path, target: req.target, core_revision: null }, now);
    return { path, status: changed ? 'removed' : 'unchanged', revision: null, chars: 0, excluded_in: null, core_enabled: coreEnabled };
  }
  if (isGitTracked(path)) {
    throw new BrainstreamError(
      'core_tracked_file_refused',
      `${path} is tracked by git, and core is never written into a git-tracked file; use --target hermes or --target claude-code (both kept out of git), or --target codex-global`,
      { path },
    );
  }
  const block = await sessionCoreBlock(brain.db, { source: caller.source, grant: null }, now);
  const revision = await currentCoreRevision(brain.db, now);
  const text = withManagedBlock(before ?? '', path, managedBlock(revision, block.text));
  // The personal files are kept out of git, so core never reaches a commit by accident.
  const excluded = GIT_EXCLUDED_TARGETS.has(req.target) ? excludeFromGit(path) : null;
  const changed = writeIfChanged(path, before, text);
  recordCompiledFile(home, { path, target: req.target, core_revision: revision }, now);
  return { path, status: changed ? 'written' : 'unchanged', revision, chars: block.chars, excluded_in: excluded, core_enabled: true };
}
