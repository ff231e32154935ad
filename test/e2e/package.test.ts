// What a user gets from npm: the tarball lists only what runs (no benchmarks, build scripts, tests
// or source maps without their sources), installs into an empty folder, `npx brainstream demo`
// works there, and a TypeScript program written against the library API type-checks and runs.
// One pack and one install per run: they are the expensive part.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';

const root = resolve(import.meta.dirname, '../..');
const sandbox = tempDir('bs-pack-');
const consumer = join(sandbox.path, 'consumer');
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
let listed: string[] = [];

beforeAll(() => {
  // `npm test` has just built dist; packing again would only rebuild it (prepack).
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', sandbox.path], { cwd: root, env: npmEnv, encoding: 'utf8' }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  listed = packed[0].files.map((f) => f.path);
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(sandbox.path, packed[0].filename)], {
    cwd: consumer,
    env: npmEnv,
    stdio: 'pipe',
  });
});
afterAll(() => sandbox.cleanup());

describe('the npm package', () => {
  it('lists only what users need', () => {
    for (const needed of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/src/cli/main.js',
      'dist/src/api/index.js',
      'dist/src/api/index.d.ts',
      'dist/src/context-engine/index.d.ts',
      'dist/src/context-engine/openclaw-plugin.d.ts',
      'dist/src/hooks/fast-hook.sh',
      'migrations/001_event_log.sql',
      'dist/home-template/manifest.json',
      'dist/home-template/pgdata.tar.gz',
      'docs/examples/transcript.txt',
      'docs/examples/library.ts',
      'openclaw.plugin.json',
    ]) {
      expect(listed, needed).toContain(needed);
    }
    const unwanted = listed.filter((p) => /^(dist\/(bench|scripts|test)\/|src\/|test\/|bench\/|scripts\/|infra\/)|\.map$|\.tsbuildinfo$/.test(p));
    expect(unwanted).toEqual([]);
  });

  it('declares its licence, repository, issue tracker, types and no install scripts', () => {
    const pkg = JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./node_modules/brainstream/package.json"))'], { cwd: consumer, encoding: 'utf8' })) as Record<string, unknown>;
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository).toMatchObject({ url: expect.stringContaining('github.com/brainstream/brainstream') });
    expect(pkg.bugs).toMatchObject({ url: 'https://github.com/brainstream/brainstream/issues' });
    expect(pkg.homepage).toMatch(/^https:\/\/github\.com\/brainstream\/brainstream/);
    expect(Object.keys(pkg.scripts as object)).not.toContain('prepare');
    expect(Object.keys(pkg.scripts as object)).not.toContain('install');
    expect(Object.keys(pkg.scripts as object)).not.toContain('postinstall');
  });

  it('runs `npx brainstream demo` from the installed tarball', () => {
    const r = spawnSync('npx', ['--no-install', 'brainstream', 'demo'], {
      cwd: consumer,
      env: { ...npmEnv, HOME: consumer, BRAINSTREAM_HOME: join(consumer, 'unused-home'), TMPDIR: sandbox.path },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Imported 7 example pages from .*node_modules\/brainstream\/docs\/examples\/brain\n/);
    expect(r.stdout).toContain('→ Widget Co → companies/widget-co (0.85, title)');
  });

  it('type-checks and runs the documented library example as a TypeScript consumer', () => {
    copyFileSync(join(root, 'docs/examples/library.ts'), join(consumer, 'library.ts'));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const compiled = spawnSync(
      process.execPath,
      [tsc, '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--types', 'node', '--typeRoots', join(root, 'node_modules/@types'), 'library.ts'],
      { cwd: consumer, encoding: 'utf8' },
    );
    expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);

    const ran = spawnSync(process.execPath, ['library.js', 'node_modules/brainstream/docs/examples/brain'], {
      cwd: consumer,
      env: { ...process.env, BRAINSTREAM_HOME: join(consumer, 'library-home') },
      encoding: 'utf8',
    });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('imported 7 pages (0 failed)');
    expect(ran.stdout).toContain('Widget Co → companies/widget-co (0.8) — exact title match "Widget Co"');
    expect(ran.stdout).toContain('Swami Iyer → people/swami-iyer (0.85)');
    expect(ran.stdout).toContain('2 volunteered events logged');
  });
});
