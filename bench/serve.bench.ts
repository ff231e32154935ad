import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { request } from '../src/serve-client/socket-client.js';
import { seedBrainHome } from './generate-brain.js';
import { bareNodeMs, median, percentile, type Measurement } from './harness.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/** Starts `serve` on `home` and resolves once it answers a ping. */
async function startServe(home: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, '--home', home, 'serve'], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.resume();
  for (let i = 0; i < 600; i++) {
    try {
      const res = await request(home, { kind: 'ping' }, { timeoutMs: 30_000 });
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('serve did not start');
}

function stopServe(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** One `volunteer-context` process, start to exit, in ms; fails the bench on a wrong answer. */
function timedVolunteer(home: string, window: string, expect: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, '--home', home, 'volunteer-context', '--json'], { input: window, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0 || !r.stdout.includes(expect)) throw new Error(`volunteer-context failed (${r.status}): ${r.stderr}${r.stdout}`);
  return ms;
}

/**
 * One-shot `volunteer-context` through a running serve on a 20,000-page brain: wall time of the
 * whole CLI process (start, forward, decide, log, exit). Target: p50 ≤ 120 ms. For scale, a few
 * direct runs without serve (each opens the brain and loads the page index).
 */
export async function benchServe(pageCount = 20_000, runs = 60, directRuns = 3): Promise<Measurement[]> {
  const { home, pages } = await seedBrainHome(pageCount, 'bs-bench-serve-');

  const windows = Array.from({ length: 10 }, (_, i) => pages[(i * 7919) % pages.length]!).map((p) => ({
    text: `user: what did ${p.title} say about the pricing thread?\n`,
    expect: p.slug,
  }));
  const direct: number[] = [];
  for (let i = 0; i < directRuns; i++) direct.push(timedVolunteer(home, windows[i]!.text, windows[i]!.expect));

  const serve = await startServe(home);
  const through: number[] = [];
  const bare: number[] = [];
  try {
    for (let i = 0; i < 5; i++) timedVolunteer(home, windows[i % windows.length]!.text, windows[i % windows.length]!.expect);
    for (let i = 0; i < runs; i++) {
      through.push(timedVolunteer(home, windows[i % windows.length]!.text, windows[i % windows.length]!.expect));
      bare.push(bareNodeMs());
    }
  } finally {
    await stopServe(serve);
    rmSync(home, { recursive: true, force: true });
  }
  return [
    {
      name: `volunteer-context through serve, ${pageCount.toLocaleString('en')}-page brain, wall time incl. process start`,
      median: median(through),
      unit: 'ms',
      runs: through,
      extra: { p50: Math.round(median(through)), p95: Math.round(percentile(through, 95)), runs },
    },
    {
      name: 'bare `node -e ""` start and exit, interleaved with the runs above (the floor of any CLI call)',
      median: median(bare),
      unit: 'ms',
      runs: bare,
      extra: { p50: Math.round(median(bare)), p95: Math.round(percentile(bare, 95)) },
    },
    {
      name: `volunteer-context without serve (opens the brain, loads the index), ${pageCount.toLocaleString('en')} pages`,
      median: median(direct),
      unit: 'ms',
      runs: direct,
    },
  ];
}
