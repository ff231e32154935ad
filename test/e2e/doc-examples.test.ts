import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, tempDir, type CliResult } from '../support/cli.js';
import { extractExamples, outputMatches, type DocCommand, type DocExample } from '../support/doc-examples.js';
import { stopServeOf } from '../support/stop-serve.js';
import { ROOT, SETUPS, startServe, homesIn, type World } from './doc-example-setups.js';

/**
 * Every shell example of README.md and docs/*.md runs here, so the guides cannot drift from the
 * product. One temporary world per document (a user folder as HOME, a brainstream home, a working
 * folder), shared by its examples in order, because a guide's steps build on each other. Commands
 * run in bash with `brainstream` on PATH as the built binary, so pipes, redirects and `&&` work as
 * a reader's shell runs them. How a block is read is described in test/support/doc-examples.ts,
 * the hidden setups in ./doc-example-setups.ts.
 */

const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'cli.md').map((f) => `docs/${f}`)];

function makeWorld(): World & { cleanup(): void } {
  const dir = tempDir('bs-doc-');
  const w = { root: dir.path, user: join(dir.path, 'user'), home: join(dir.path, 'brainstream-home'), work: join(dir.path, 'work'), bin: join(dir.path, 'bin') };
  for (const d of [w.user, w.work, w.bin]) mkdirSync(d, { recursive: true });
  const wrapper = join(w.bin, 'brainstream');
  writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`);
  chmodSync(wrapper, 0o755);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${w.bin}:${process.env.PATH ?? ''}`,
    HOME: w.user,
    XDG_CONFIG_HOME: join(w.user, '.config'),
    CODEX_HOME: join(w.user, '.codex'),
    CLAUDE_CONFIG_DIR: w.user,
    BRAINSTREAM_HOME: w.home,
    BRAINSTREAM_SOURCE: '',
    // As in a reader's shell: the first command that goes through serve starts one, the rest
    // are answered by it (stopped with the world, below).
    BRAINSTREAM_AUTOSTART: '1',
  };
  return { ...w, env, background: [], cleanup: dir.cleanup };
}

function runShell(w: World, cmd: DocCommand): Promise<CliResult> {
  return new Promise((done) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', cmd.text], { cwd: w.work, env: w.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** A background command (only `serve &` in the guides) must come up: it answers once it does. */
function startBackground(w: World, cmd: DocCommand, ex: DocExample): Promise<void> {
  return startServe(w, cmd.text, `${ex.file}:${cmd.line}`);
}

async function stopBackground(w: World): Promise<void> {
  for (const child of w.background) {
    if (child.exitCode !== null) continue;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
  // The serves the guide's commands started by themselves, one per home they used.
  for (const home of homesIn(w.root)) await stopServeOf(home);
}

function describeCommand(ex: DocExample, cmd: DocCommand, r: CliResult): string {
  return `${ex.file}:${cmd.line}: ${cmd.text}\nexit ${r.code} (doc: ${cmd.exitCode})\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

const SERVICE_ENV: Record<string, string> = { kafka: 'KAFKA_BROKERS', postgres: 'DATABASE_URL' };
const UNDER_CI = process.env.CI !== undefined && process.env.CI !== 'false' && process.env.CI !== '0';

const skipped: string[] = [];
afterAll(() => {
  // Listed on every run, so a skip is seen rather than forgotten.
  if (skipped.length > 0) console.log(`doc examples not run:\n${skipped.map((s) => `  ${s}`).join('\n')}`);
});

for (const file of DOCS) {
  const examples = extractExamples(file, readFileSync(join(ROOT, file), 'utf8'));
  if (examples.length === 0) continue;
  describe(file, () => {
    it(`runs its ${examples.length} shell example(s) in order`, async () => {
      const w = makeWorld();
      try {
        for (const ex of examples) {
          if (ex.skip !== null) {
            skipped.push(`${ex.file}:${ex.line}: ${ex.skip}`);
            continue;
          }
          const missing = ex.services.map((s) => SERVICE_ENV[s] ?? s).filter((v) => !process.env[v]);
          if (missing.length > 0) {
            if (UNDER_CI) throw new Error(`${ex.file}:${ex.line} needs ${missing.join(', ')}, which CI provides`);
            skipped.push(`${ex.file}:${ex.line}: ${missing.join(', ')} not set`);
            continue;
          }
          let unmet: string | undefined;
          for (const s of ex.setup) {
            const setup = SETUPS[s];
            if (setup === undefined) throw new Error(`${ex.file}:${ex.line}: unknown setup ${s}`);
            unmet = await setup(w);
            if (unmet !== undefined) break;
          }
          // Only the benchmark folders beside the repository (../shared) can be missing: test data
          // that is not part of the repository, whose absence skips its examples with a warning.
          if (unmet !== undefined) {
            console.warn(`[doc examples] SKIPPING ${ex.file}:${ex.line}: ${unmet}`);
            skipped.push(`${ex.file}:${ex.line}: ${unmet}`);
            continue;
          }
          for (const cmd of ex.commands) {
            if (cmd.background) {
              await startBackground(w, cmd, ex);
              continue;
            }
            const r = await runShell(w, cmd);
            expect(r.code, describeCommand(ex, cmd, r)).toBe(cmd.exitCode);
            if (cmd.output !== null) {
              // The doc shows what a terminal shows: stdout and stderr together.
              expect(outputMatches(cmd.output, r.stdout + r.stderr), `${describeCommand(ex, cmd, r)}--- doc shows\n${cmd.output.join('\n')}`).toBe(true);
            }
          }
        }
      } finally {
        await stopBackground(w);
        w.cleanup();
      }
    });
  });
}
