import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileContext, targetPath } from '../../../src/ops/compile-context.js';
import { coreMemoryDoctor } from '../../../src/doctor/core-memory-doctor.js';
import { localOpContext } from '../../../src/ops/operations/local-op-context.js';
import { runOperation } from '../../../src/ops/registry.js';
import { storageDrivers } from '../../support/databases.js';
import { coreBrain, owner, putCore, remote } from './core-brain.js';

const drivers = await storageDrivers();
const git = (cwd: string, ...args: string[]) => spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

describe.each(drivers.slice(0, 1))('compile-context on $name', ({ open }) => {
  it('targets resolve as specified', () => {
    expect(targetPath('codex', '/w', {})).toBe('/w/AGENTS.md');
    expect(targetPath('codex-global', '/w', { CODEX_HOME: '/c' })).toBe('/c/AGENTS.md');
    expect(targetPath('codex-global', '/w', { HOME: '/h' })).toBe('/h/.codex/AGENTS.md');
    expect(targetPath('hermes', '/w', {})).toBe('/w/.hermes.md');
    expect(targetPath('claude-code', '/w', {})).toBe('/w/CLAUDE.local.md');
  });

  it('keeps a managed block, content outside it untouched, byte-stable; removes it; records compiled.json for doctor', async () => {
    const b = await coreBrain(await open(), { 'memory.core.enabled': true });
    const cwd = join(b.home, 'work');
    mkdirSync(cwd);
    await putCore(b.brain, 'prefs', 'Short answers.');
    const file = join(cwd, 'CLAUDE.local.md');
    writeFileSync(file, '# Project rules\n\nUse pnpm.\n');
    const req = { target: 'claude-code' as const, mode: 'include' as const, cwd, env: {} };
    const r = await compileContext(b.brain, owner, b.home, req);
    expect(r).toMatchObject({ path: file, status: 'written', chars: 47 });
    const written = readFileSync(file, 'utf8');
    expect(written).toBe(
      `# Project rules\n\nUse pnpm.\n\n<!-- brainstream:compiled-context:begin core=${r.revision} -->\n# Core memory\n\n## prefs (prefs)\n\nShort answers.\n<!-- brainstream:compiled-context:end -->\n`,
    );
    expect((await compileContext(b.brain, owner, b.home, req)).status).toBe('unchanged');
    expect(readFileSync(file, 'utf8')).toBe(written);
    writeFileSync(file, written + '\nMore rules after.\n');
    await putCore(b.brain, 'prefs', 'Short answers, always.');
    const stale = await coreMemoryDoctor({ home: b.home, db: b.brain.db, sources: null, now: new Date() });
    expect(stale.details.findings).toEqual([
      expect.objectContaining({ kind: 'stale_compiled_core', path: file, fix: 'brainstream compile-context --target claude-code --include-core (or --remove-core)' }),
    ]);
    await compileContext(b.brain, owner, b.home, req);
    expect(readFileSync(file, 'utf8')).toMatch(/^# Project rules\n\nUse pnpm\.\n\n<!-- brainstream:compiled-context:begin core=[0-9a-f]{16} -->\n# Core memory\n\n## prefs \(prefs\)\n\nShort answers, always\.\n<!-- brainstream:compiled-context:end -->\n\nMore rules after\.\n$/);
    expect((await coreMemoryDoctor({ home: b.home, db: b.brain.db, sources: null, now: new Date() })).details.findings).toEqual([]);
    expect((await compileContext(b.brain, owner, b.home, { ...req, mode: 'remove' })).status).toBe('removed');
    expect(readFileSync(file, 'utf8')).toBe('# Project rules\n\nUse pnpm.\n\nMore rules after.\n');
    expect(JSON.parse(readFileSync(join(b.home, 'compiled.json'), 'utf8')).files).toEqual([
      { path: file, target: 'claude-code', core_revision: null, updated_at: expect.any(String) },
    ]);
    b.cleanup();
  });

  it('claude-code writes the personal CLAUDE.local.md, kept out of git, and takes an older block out of the shared CLAUDE.md', async () => {
    const b = await coreBrain(await open(), { 'memory.core.enabled': true });
    const repo = join(b.home, 'claude-repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '.');
    writeFileSync(join(repo, 'CLAUDE.md'), '# Team rules\n');
    git(repo, 'add', 'CLAUDE.md');
    git(repo, 'commit', '-qm', 'init');
    // What an earlier version wrote into the shared file (uncommitted).
    writeFileSync(join(repo, 'CLAUDE.md'), '# Team rules\n\n<!-- brainstream:compiled-context:begin core=0123456789abcdef -->\n# Core memory\n<!-- brainstream:compiled-context:end -->\n');
    await putCore(b.brain, 'prefs', 'Short answers.');
    const r = await compileContext(b.brain, owner, b.home, { target: 'claude-code', mode: 'include', cwd: repo, env: {} });
    expect(r).toMatchObject({ path: join(repo, 'CLAUDE.local.md'), status: 'written' });
    expect(readFileSync(join(repo, 'CLAUDE.local.md'), 'utf8')).toContain('Short answers.');
    expect(r.excluded_in).not.toBeNull();
    expect(readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8').split('\n')).toContain('/CLAUDE.local.md');
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toBe('# Team rules\n');
    expect(git(repo, 'status', '--porcelain').stdout).toBe('');
    b.cleanup();
  });

  it('never writes core into a git-tracked file; hermes is added to .git/info/exclude; damaged markers and remote callers are refused', async () => {
    const b = await coreBrain(await open(), { 'memory.core.enabled': true });
    const repo = join(b.home, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '.');
    writeFileSync(join(repo, 'AGENTS.md'), '# Agents\n');
    git(repo, 'add', 'AGENTS.md');
    git(repo, 'commit', '-qm', 'init');
    await putCore(b.brain, 'prefs', 'P');
    const codex = compileContext(b.brain, owner, b.home, { target: 'codex', mode: 'include', cwd: repo, env: {} });
    await expect(codex).rejects.toMatchObject({ code: 'core_tracked_file_refused', message: expect.stringContaining('--target hermes') });
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toBe('# Agents\n');
    const hermes = await compileContext(b.brain, owner, b.home, { target: 'hermes', mode: 'include', cwd: repo, env: {} });
    expect(hermes.excluded_in).not.toBeNull();
    expect(readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8').split('\n')).toContain('/.hermes.md');
    expect(git(repo, 'status', '--porcelain').stdout).toBe('');
    writeFileSync(join(repo, '.hermes.md'), '<!-- brainstream:compiled-context:begin core=abc -->\nno end\n');
    await expect(compileContext(b.brain, owner, b.home, { target: 'hermes', mode: 'include', cwd: repo, env: {} })).rejects.toMatchObject({
      code: 'compiled_context_damaged',
    });
    // The owner-only rule is the operation's: a remote caller is refused before anything is read.
    const asRemote = runOperation(localOpContext(b.brain, remote, b.home), 'compile_context', { target: 'hermes', mode: 'remove' });
    await expect(asRemote).rejects.toMatchObject({ code: 'owner_only', message: 'compile-context is an owner-only command; run it on the brain host' });
    expect(readFileSync(join(repo, '.hermes.md'), 'utf8')).toBe('<!-- brainstream:compiled-context:begin core=abc -->\nno end\n');
    // Core off: --include-core succeeds and leaves no core in the file (an earlier block is removed).
    const global = { target: 'codex-global' as const, mode: 'include' as const, cwd: repo, env: { CODEX_HOME: join(b.home, 'codex') } };
    mkdirSync(join(b.home, 'codex'));
    writeFileSync(join(b.home, 'codex', 'AGENTS.md'), '# Mine\n');
    expect(await compileContext(b.brain, owner, b.home, global)).toMatchObject({ status: 'written', core_enabled: true });
    b.setConfig({});
    expect(await compileContext(b.brain, owner, b.home, global)).toMatchObject({ status: 'removed', revision: null, chars: 0, core_enabled: false });
    expect(readFileSync(join(b.home, 'codex', 'AGENTS.md'), 'utf8')).toBe('# Mine\n');
    const absent = { ...global, env: { CODEX_HOME: join(b.home, 'codex-none') } };
    expect(await compileContext(b.brain, owner, b.home, absent)).toMatchObject({ status: 'unchanged', revision: null, core_enabled: false });
    expect(existsSync(join(b.home, 'codex-none', 'AGENTS.md'))).toBe(false);
    b.cleanup();
  });
});
