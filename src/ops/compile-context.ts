import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import { brainConfig } from '../config/brain-config.js';
import { managedBlock, withManagedBlock, withoutManagedBlock } from '../core-memory/compiled-block.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { BrainstreamError } from '../errors.js';
import { codexDir } from '../hooks/harness-dirs.js';
import { recordCompiledFile } from './compiled-registry.js';
import { currentCoreRevision, sessionCoreBlock } from './core-delivery.js';
import { excludeFromGit, isGitTracked } from './git-probe.js';

export const COMPILE_TARGETS = ['codex', 'codex-global', 'hermes', 'claude-code'] as const;
export type CompileTarget = (typeof COMPILE_TARGETS)[number];

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
      return join(cwd, 'CLAUDE.md');
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
  /** `.git/info/exclude` the file was added to (hermes), or null. */
  excluded_in: string | null;
  /** `memory.core.enabled`: while false, `--include-core` writes no core: nothing is delivered while core is off. */
  core_enabled: boolean;
}

/** Atomic (temp file + rename) and byte-stable: identical content is not rewritten. */
function writeIfChanged(path: string, before: string | null, text: string): boolean {
  if (before === text) return false;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.brainstream.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
  return true;
}

/**
 * `compile-context`: keeps the owner's session block for `caller.source` in a
 * managed block of a static instruction file, or removes it. Core is never written into a
 * git-tracked file (`core_tracked_file_refused`; nothing written) and never while core memory is
 * off (then a block left by an earlier run is removed instead). Each compiled path is recorded in
 * `<home>/compiled.json` for doctor.
 */
export async function compileContext(brain: Brain, caller: Caller, home: string, req: CompileRequest): Promise<CompileResult> {
  if (caller.kind !== 'owner') throw new BrainstreamError('owner_only', 'compile-context is an owner-only command; run it on the brain host');
  const now = req.now ?? new Date();
  const path = req.out === undefined ? targetPath(req.target, req.cwd, req.env) : resolve(req.cwd, req.out);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : null;
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
      `${path} is tracked by git, and core is never written into a git-tracked file; use --target hermes (kept out of git) or --target codex-global`,
      { path },
    );
  }
  const block = await sessionCoreBlock(brain.db, { source: caller.source, grant: null }, now);
  const revision = await currentCoreRevision(brain.db, now);
  const text = withManagedBlock(before ?? '', path, managedBlock(revision, block.text));
  const excluded = req.target === 'hermes' ? excludeFromGit(path) : null;
  const changed = writeIfChanged(path, before, text);
  recordCompiledFile(home, { path, target: req.target, core_revision: revision }, now);
  return { path, status: changed ? 'written' : 'unchanged', revision, chars: block.chars, excluded_in: excluded, core_enabled: true };
}
