import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempFolder } from './temp-folder.js';
import { fmt, median, type Measurement } from './harness.js';

const main = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');
const probe = join(import.meta.dirname, 'peak-rss-probe.js');

interface Run {
  wallMs: number;
  rssMiB: number;
}

/** One process, wall time from spawn to exit and its own peak memory. */
function runProcess(args: readonly string[], scratch: string, env: NodeJS.ProcessEnv = {}): Run {
  const rssFile = join(scratch, `peak-rss-${process.hrtime.bigint()}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', probe, ...args], {
    env: { ...process.env, ...env, BENCH_PEAK_RSS_FILE: rssFile },
    encoding: 'utf8',
  });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  const rssMiB = Number(readFileSync(rssFile, 'utf8')) / 1024;
  rmSync(rssFile, { force: true });
  return { wallMs, rssMiB };
}

/**
 * The first command on a new home, as a user runs it: `brainstream --home NEW page list` as a
 * process (Node start, home created from the prebuilt database, the command, close), against the
 * same command on a home that exists and a bare `node -e ''`, interleaved in one run so machine
 * load affects all three alike. Serve is not started (BRAINSTREAM_AUTOSTART=0): this measures
 * the home, not the daemon.
 */
export async function benchNewHome(runs = 7): Promise<Measurement[]> {
  const scratch = tempFolder('bs-bench-new-home-');
  const env = { BRAINSTREAM_AUTOSTART: '0' };
  const existing = join(scratch, 'existing');
  runProcess([main, '--home', existing, 'page', 'list'], scratch, env);
  const bare: Run[] = [];
  const fresh: Run[] = [];
  const again: Run[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const b = runProcess(['-e', ''], scratch);
    const f = runProcess([main, '--home', join(scratch, `new-${i}`), 'page', 'list'], scratch, env);
    const a = runProcess([main, '--home', existing, 'page', 'list'], scratch, env);
    if (i === 0) continue; // warm-up
    bare.push(b);
    fresh.push(f);
    again.push(a);
  }
  rmSync(scratch, { recursive: true, force: true });
  const wall = (rs: Run[]): number[] => rs.map((r) => r.wallMs);
  const bareMs = median(wall(bare));
  const freshMs = median(wall(fresh));
  const againMs = median(wall(again));
  // Paired within each round, so a load swing between rounds does not land on one side only.
  const addedMs = median(fresh.map((f, i) => f.wallMs - again[i]!.wallMs));
  return [
    { name: 'bare `node -e ""` start (wall)', median: bareMs, unit: 'ms', runs: wall(bare), extra: { 'peak RSS MiB': Math.round(median(bare.map((r) => r.rssMiB))) } },
    {
      name: 'first command on a new home, `page list` as a process (wall)',
      median: freshMs,
      unit: 'ms',
      runs: wall(fresh),
      extra: {
        'peak RSS MiB': Math.round(median(fresh.map((r) => r.rssMiB))),
        '× bare node': fmt(freshMs / bareMs, 1),
        'new-home cost over an existing home (median of paired differences), × bare node': fmt(Math.max(0, addedMs) / bareMs, 1),
      },
    },
    {
      name: 'same command on an existing home (wall)',
      median: againMs,
      unit: 'ms',
      runs: wall(again),
      extra: { 'peak RSS MiB': Math.round(median(again.map((r) => r.rssMiB))), '× bare node': fmt(againMs / bareMs, 1) },
    },
  ];
}
