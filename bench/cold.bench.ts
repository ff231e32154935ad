import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coldPaths } from '../src/cold/cold-files.js';
import { writeSnapshot } from '../src/cold/page-snapshot.js';
import { PageIndex } from '../src/context/page-index.js';
import { generatePages } from './generate-brain.js';
import { fmt, median, type Measurement } from './harness.js';
import { tempFolder } from './temp-folder.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/**
 * A home whose page snapshot holds a generated brain of `count` pages, written by the same
 * writer serve and every page-changing command use. The cold path reads only that file, so the
 * database is left out of the seeding (importing 100,000 pages would dominate the run).
 */
function coldHome(count: number, scratch: string): { home: string; named: string } {
  const home = join(scratch, `home-${count}`);
  mkdirSync(join(home, 'run'), { recursive: true, mode: 0o700 });
  const index = new PageIndex();
  const pages = generatePages(count);
  for (const p of pages) index.upsert(p);
  writeSnapshot(coldPaths(home).snapshot, index, 1, new Date());
  return { home, named: pages[Math.floor(count / 2)]!.title };
}

function wall(args: readonly string[], input: string, env: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { input, encoding: 'utf8', env: { ...process.env, ...env } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return ms;
}

/**
 * The cold path as users meet it, as processes: one-shot `volunteer-context` and the prompt
 * hook with no serve running (BRAINSTREAM_AUTOSTART=0, so no daemon start is in the figure), at
 * 1k, 20k and 100k pages, interleaved with a bare `node -e ''` in one run. Each call must
 * volunteer the page it names.
 */
export async function benchCold(runs = 7): Promise<Measurement[]> {
  const scratch = tempFolder('bs-bench-cold-');
  const env = { BRAINSTREAM_AUTOSTART: '0', HOME: scratch };
  const sizes = [1000, 20_000, 100_000];
  const homes = sizes.map((n) => coldHome(n, scratch));
  const transcript = join(scratch, 'transcript.jsonl');
  writeFileSync(transcript, '');
  const bare: number[] = [];
  const oneShot = sizes.map(() => [] as number[]);
  const hook = sizes.map(() => [] as number[]);
  for (let i = 0; i < runs + 1; i++) {
    const b = wall(['-e', ''], '', env);
    const o = homes.map(({ home, named }) => {
      const ms = wall([CLI, '--home', home, 'volunteer-context', '--json'], `user: I met ${named} yesterday\n`, env);
      return ms;
    });
    const h = homes.map(({ home, named }) =>
      wall([CLI, '--home', home, 'hook', 'user-prompt'], JSON.stringify({ session_id: `bench-${i}`, transcript_path: transcript, cwd: scratch, hook_event_name: 'UserPromptSubmit', prompt: `What did ${named} say?` }), env),
    );
    if (i === 0) continue; // warm-up
    bare.push(b);
    o.forEach((ms, k) => oneShot[k]!.push(ms));
    h.forEach((ms, k) => hook[k]!.push(ms));
  }
  // The figures count only if the calls delivered: check once, outside the timed runs.
  for (const { home, named } of homes) {
    const r = spawnSync(process.execPath, [CLI, '--home', home, 'volunteer-context', '--json'], { input: `user: I met ${named} yesterday\n`, encoding: 'utf8', env: { ...process.env, ...env } });
    if (!r.stdout.includes(named)) throw new Error(`cold one-shot did not volunteer ${named}: ${r.stdout}`);
    const payload = JSON.stringify({ session_id: 'check', transcript_path: transcript, cwd: scratch, hook_event_name: 'UserPromptSubmit', prompt: `What did ${named} say?` });
    const h = spawnSync(process.execPath, [CLI, '--home', home, 'hook', 'user-prompt'], { input: payload, encoding: 'utf8', env: { ...process.env, ...env } });
    if (!h.stdout.includes(named)) process.stderr.write(`note: the cold prompt hook missed ${named} (its 800 ms deadline under this load?)\n`);
  }
  rmSync(scratch, { recursive: true, force: true });
  const bareMs = median(bare);
  const out: Measurement[] = [{ name: 'bare `node -e ""` start (wall)', median: bareMs, unit: 'ms', runs: bare }];
  const smallest = median(oneShot[0]!);
  sizes.forEach((n, k) => {
    const o = median(oneShot[k]!);
    out.push({
      name: `cold one-shot \`volunteer-context\`, no serve, ${n.toLocaleString('en-US')} pages (wall)`,
      median: o,
      unit: 'ms',
      runs: oneShot[k]!,
      extra: { '× bare node': fmt(o / bareMs, 1), '× the 1k brain': fmt(o / smallest, 2) },
    });
    const h = median(hook[k]!);
    out.push({ name: `first prompt hook, no serve, ${n.toLocaleString('en-US')} pages (wall)`, median: h, unit: 'ms', runs: hook[k]!, extra: { '× bare node': fmt(h / bareMs, 1) } });
  });
  return out;
}
