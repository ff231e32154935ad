import { rmSync } from 'node:fs';
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
  rmSync(src, { recursive: true, force: true });
  const m = median(importMs);
  return [
    { name: `import ${pages} pages (existing empty home)`, median: m / 1000, unit: 's', runs: importMs.map((x) => x / 1000), extra: { 'pages/s': Math.round(pages / (m / 1000)) } },
    { name: 'create a new embedded home (initdb + migrations)', median: median(openMs) / 1000, unit: 's', runs: openMs.map((x) => x / 1000) },
  ];
}
