import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../src/package-root.js';
import { scoreFixtures, type BenchReport } from '../src/eval/score.js';

/**
 * Shared runner of `npm run eval:brainbench` / `eval:locomo`: replays every fixture of a
 * BrainBench-format folder as one `watch` session (each turn a stdin line through watch's parsing
 * and volunteer topology; window 4, gate 0.7, cap 3) and prints the micro-averaged metrics. A
 * fixture without gold or a turn watch lost is an error (exit 1), never a silently unscored
 * case. `--no-gazetteer` reproduces the spec-exact extraction; `--json` prints the whole report
 * with per-turn detail.
 */
export async function runEval(name: string, folder: string): Promise<void> {
  const args = process.argv.slice(2);
  const dir = resolve(packageRoot(), '..', 'shared', folder);
  if (!existsSync(join(dir, 'fixtures'))) {
    process.stderr.write(`${name}: no fixtures at ${dir} (expected ../shared/${folder} beside the repository)\n`);
    process.exit(1);
  }
  const gazetteer = !args.includes('--no-gazetteer');
  let report: BenchReport;
  try {
    report = await scoreFixtures(dir, { gazetteer });
  } catch (err) {
    process.stderr.write(`${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }
  process.stdout.write(renderReport(name, report, gazetteer));
}

function renderReport(name: string, r: BenchReport, gazetteer: boolean): string {
  const k = r.counts;
  const lines = [
    `${name} — ${r.fixtures} fixtures, watch channel defaults (window 4, gate 0.7, cap 3), gazetteer ${gazetteer ? 'on' : 'off'}`,
    `  know-to-ask failure   ${r.knowToAskFailure.toFixed(3)}  (${k.knowToAskFailures}/${k.shouldRetrieveTurns} should-retrieve turns with nothing right volunteered)`,
    `  false fire            ${r.falseFire.toFixed(3)}  (${k.falseFires}/${k.silentTurns} silent turns with a page volunteered)`,
    `  push precision        ${r.precision.toFixed(3)}  (${k.relevantOnRetrieve}/${k.volunteeredOnRetrieve} volunteered pages in gold ∪ acceptable)`,
    `  push recall           ${r.recall.toFixed(3)}  (${k.goldVolunteered}/${k.goldTotal} gold pages volunteered)`,
    `  source isolation      ${r.sourceIsolationViolations} violation(s)`,
  ];
  const misses = r.details.flatMap((d) => d.turns.filter((t) => t.missed.length > 0 || t.wrong.length > 0).map((t) => `    ${d.fixture_id} turn ${t.turn_id}: missed [${t.missed.join(', ')}] wrong [${t.wrong.join(', ')}]`));
  if (misses.length > 0) lines.push('  turns that were not perfect:', ...misses.slice(0, 40), ...(misses.length > 40 ? [`    … and ${misses.length - 40} more (--json for all)`] : []));
  return `${lines.join('\n')}\n`;
}
