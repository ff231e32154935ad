import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openBrain } from '../src/brain/brain.js';
import { importFolder } from '../src/ops/import-folder.js';
import { tempFolder } from './temp-folder.js';
import { generatePages, writeBrainFolder } from './generate-brain.js';
import { median, type Measurement } from './harness.js';

/** Import of a generated 20,000-page brain into a fresh embedded home (brain creation timed apart). */
export async function benchImport(pages = 20_000, runs = 3): Promise<Measurement[]> {
  const src = tempFolder('bs-bench-import-src-');
  writeBrainFolder(src, generatePages(pages));
  const importMs: number[] = [];
  const openMs: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const home = tempFolder('bs-bench-import-home-');
    const t0 = performance.now();
    const brain = await openBrain(home);
    const t1 = performance.now();
    const summary = await importFolder(brain, src, 'default');
    const t2 = performance.now();
    await brain.close();
    rmSync(home, { recursive: true, force: true });
    if (summary.added !== pages) throw new Error(`import bench imported ${summary.added} of ${pages}`);
    if (i > 0) {
      openMs.push(t1 - t0);
      importMs.push(t2 - t1);
    }
  }
  const cli = importThroughCli(src, pages, runs);
  rmSync(src, { recursive: true, force: true });
  const m = median(importMs);
  return [
    { name: `import ${pages} pages (existing empty home)`, median: m / 1000, unit: 's', runs: importMs.map((x) => x / 1000), extra: { 'pages/s': Math.round(pages / (m / 1000)) } },
    { name: 'create a new embedded home (initdb + migrations)', median: median(openMs) / 1000, unit: 's', runs: openMs.map((x) => x / 1000) },
    cli,
  ];
}

/**
 * What a user waits for: `brainstream --home NEW import FOLDER` as a process, wall time from
 * spawn to exit (Node start, new home, import, close), and that process's own peak memory.
 */
function importThroughCli(src: string, pages: number, runs: number): Measurement {
  const main = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');
  const probe = join(import.meta.dirname, 'peak-rss-probe.js');
  const wallS: number[] = [];
  const rssMiB: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const home = tempFolder('bs-bench-import-cli-');
    const rssFile = join(home, 'peak-rss');
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', probe, main, '--home', join(home, 'brain'), 'import', src], {
      env: { ...process.env, BENCH_PEAK_RSS_FILE: rssFile },
      encoding: 'utf8',
    });
    const t1 = performance.now();
    const rss = Number(readFileSync(rssFile, 'utf8')) / 1024;
    rmSync(home, { recursive: true, force: true });
    if (r.status !== 0 || !r.stdout.startsWith(`import: ${pages} added`)) throw new Error(`import through the CLI failed: ${r.stderr || r.stdout}`);
    if (i > 0) {
      wallS.push((t1 - t0) / 1000);
      rssMiB.push(rss);
    }
  }
  const m = median(wallS);
  return {
    name: `brainstream import of ${pages} pages into a new home, as a process (wall)`,
    median: m,
    unit: 's',
    runs: wallS,
    extra: { 'pages/s': Math.round(pages / m), 'peak RSS MiB': Math.round(median(rssMiB)) },
  };
}
