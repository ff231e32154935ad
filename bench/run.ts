import { writeFileSync, mkdirSync } from 'node:fs';
import { fmt, machine, peakRssMiB, type Measurement } from './harness.js';
import { benchCold } from './cold.bench.js';
import { benchDecision } from './decision.bench.js';
import { benchGazetteer } from './gazetteer.bench.js';
import { benchHook } from './hook.bench.js';
import { benchImport } from './import.bench.js';
import { benchKafka } from './kafka.bench.js';
import { benchNewHome } from './new-home.bench.js';
import { benchRebuild } from './rebuild.bench.js';
import { benchReplay } from './replay.bench.js';
import { benchServe } from './serve.bench.js';
import { benchWatch } from './watch.bench.js';
import { benchWatchProcess } from './watch-process.bench.js';

/**
 * `npm run bench [-- name…]`: runs the hot-path benchmarks (medians after a warm-up) and prints
 * a markdown table; the raw figures go to bench-results/latest.json.
 */
const suites: Record<string, () => Promise<Measurement[]>> = {
  'new-home': () => benchNewHome(),
  import: () => benchImport(),
  cold: () => benchCold(),
  decision: () => benchDecision(),
  gazetteer: () => benchGazetteer(),
  watch: () => benchWatch(),
  'watch-process': () => benchWatchProcess(),
  serve: () => benchServe(),
  hook: () => benchHook(),
  replay: () => benchReplay(),
  rebuild: () => benchRebuild(),
  // Needs KAFKA_BROKERS and DATABASE_URL; says so and skips otherwise.
  kafka: () => benchKafka(),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const results: Measurement[] = [];
process.stdout.write(`machine: ${machine()}\n\n| benchmark | median | runs | notes |\n|---|---|---|---|\n`);
for (const [name, run] of Object.entries(suites)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  for (const m of await run()) {
    results.push(m);
    const extra = Object.entries(m.extra ?? {}).map(([k, v]) => `${k} ${v}`).join(', ');
    process.stdout.write(`| ${m.name} | ${fmt(m.median, 3)} ${m.unit} | ${m.runs.map((r) => fmt(r, 3)).join(' / ')} | ${extra} |\n`);
  }
}
process.stdout.write(`\npeak RSS of the bench process: ${fmt(peakRssMiB(), 0)} MiB\n`);
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/latest.json', JSON.stringify({ machine: machine(), at: new Date().toISOString(), results }, null, 2));
