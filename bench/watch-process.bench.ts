import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { pingServe } from '../src/serve-client/autostart.js';
import { seedBrainHome } from './generate-brain.js';
import { bareNodeMs, fmt, median, type Measurement } from './harness.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

interface WatchRun {
  /** Spawn → "session … ready" on stderr. */
  readyMs: number;
  /** Spawn → exit: every line read, decided, printed and its rows projected. */
  wallMs: number;
  printed: number;
}

/** One `brainstream watch --json` process over `input`, as a user pipes a transcript into it. */
function watchOnce(home: string, input: string, env: NodeJS.ProcessEnv): Promise<WatchRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let readyMs = NaN;
    let printed = 0;
    let stderr = '';
    const child = spawn(process.execPath, [CLI, '--home', home, 'watch', '--json'], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) printed++;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (Number.isNaN(readyMs) && /session \S+ ready/.test(stderr)) readyMs = performance.now() - t0;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`watch exited ${code}: ${stderr.trim()}`));
      else resolve({ readyMs, wallMs: performance.now() - t0, printed });
    });
    child.stdin.end(input);
  });
}

async function stopServe(home: string): Promise<void> {
  const ping = await pingServe(home, 2_000);
  if (!ping) return;
  process.kill(ping.pid, 'SIGTERM');
  while (await pingServe(home, 500)) await sleep(50);
  // The brain lock is released once the process has gone.
  for (;;) {
    try {
      process.kill(ping.pid, 0);
      await sleep(50);
    } catch {
      return;
    }
  }
}

/**
 * `watch` as users run it, as processes on a 20,000-page home: a transcript of `turns` lines piped
 * into `brainstream watch --json`, timed from spawn to "ready" and to exit (every line decided,
 * its pages printed, its rows projected). Three ways it meets the brain: forwarded to a running,
 * warm serve (the usual case), the first call that starts serve itself, and without serve
 * (BRAINSTREAM_AUTOSTART=0, the brain opened in the process). A bare `node -e ''` is timed in the
 * same run, between the runs.
 */
export async function benchWatchProcess(pageCount = 20_000, turns = 10_000, runs = 3): Promise<Measurement[]> {
  const { home, pages } = await seedBrainHome(pageCount, 'bs-watchproc-');
  const lines: string[] = [];
  for (let i = 0; i < turns; i++) {
    const p = pages[(i * 7919) % pages.length]!;
    lines.push(i % 2 === 0 ? `user: what did ${p.title} say about the pricing thread?` : 'assistant: they asked for the updated deck before Friday.');
  }
  const input = `${lines.join('\n')}\n`;
  writeFileSync(join(home, 'bench-transcript.txt'), input);
  const expected = turns / 2;
  const modes = {
    forwarded: { env: {}, before: async () => {} },
    'starts serve': { env: {}, before: () => stopServe(home) },
    'no serve': { env: { BRAINSTREAM_AUTOSTART: '0' }, before: () => stopServe(home) },
  } as const;
  const results = new Map<string, WatchRun[]>(Object.keys(modes).map((m) => [m, []]));
  const bare: number[] = [];
  // The first round warms the caches (and starts serve for the forwarded runs).
  for (let round = 0; round <= runs; round++) {
    for (const [mode, how] of Object.entries(modes)) {
      await how.before();
      // A serve users have had running a while: started, then warmed by one whole transcript.
      if (mode === 'forwarded' && !(await pingServe(home, 2_000))) await watchOnce(home, input, {});
      const run = await watchOnce(home, input, how.env);
      if (run.printed !== expected) throw new Error(`watch (${mode}) printed ${run.printed} pages, expected ${expected}`);
      if (round > 0) results.get(mode)!.push(run);
      if (round > 0) bare.push(bareNodeMs());
    }
  }
  await stopServe(home);
  const bareMs = median(bare);
  const out: Measurement[] = [{ name: 'bare `node -e ""` start (wall), same run', median: bareMs, unit: 'ms', runs: bare }];
  for (const [mode, rs] of results) {
    const ready = rs.map((r) => r.readyMs);
    const rate = rs.map((r) => turns / (r.wallMs / 1000));
    out.push({
      name: `watch process, ${mode}: ready at ${pageCount.toLocaleString('en')} pages`,
      median: median(ready),
      unit: 'ms',
      runs: ready,
      extra: { '× bare node': fmt(median(ready) / bareMs, 1) },
    });
    out.push({
      name: `watch process, ${mode}: ${turns.toLocaleString('en')} turns stdin → stdout → rows, incl. process start`,
      median: Math.round(median(rate)),
      unit: 'turns/s',
      runs: rate.map(Math.round),
      extra: { volunteered_per_run: expected },
    });
  }
  return out;
}
