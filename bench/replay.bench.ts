import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { openPgliteDb } from '../src/db/pglite-db.js';
import { migrate } from '../src/db/migrate.js';
import { EmbeddedEventLog } from '../src/event-log/embedded-log.js';
import { EmbeddedReplaySource } from '../src/replay/embedded-turn-source.js';
import { runReplay } from '../src/replay/replay.js';
import { parseThresholdRange } from '../src/replay/threshold-range.js';
import { generatePages } from './generate-brain.js';
import { generateTurnLog, pageEvents } from './generate-turns.js';
import { median, type Measurement } from './harness.js';
import { tempFolder } from './temp-folder.js';

/**
 * `replay` of 1,000,000 logged turns over a 20,000-page embedded brain at 7 gates
 * (0.6:0.9:0.05), reading the log from disk; the log is built first, untimed.
 */
export async function benchReplay(turns = 1_000_000, pageCount = 20_000, runs = 3): Promise<Measurement[]> {
  const home = tempFolder('bs-bench-replay-');
  const db = await openPgliteDb(join(home, 'db'));
  try {
    await migrate(db);
    const log = new EmbeddedEventLog(db);
    const pages = generatePages(pageCount);
    await log.append(pageEvents(pages));
    for (const chunk of generateTurnLog(pages, { turns })) await log.append(chunk);
    const gates = parseThresholdRange('--min-confidence', '0.6:0.9:0.05');
    const workers = Math.min(4, availableParallelism());
    const seconds: number[] = [];
    const cpu: number[] = [];
    const load: number[] = [];
    let volunteered = 0;
    let sessions = 0;
    for (let i = 0; i < runs; i++) {
      load.push(loadavg()[0]!);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const run = await runReplay(await EmbeddedReplaySource.open(db), {
        gates, windowTurns: 4, lexicalArms: true, gazetteer: true, remote: false, since: null, arms: null, workers,
      });
      seconds.push((performance.now() - t0) / 1000);
      // Every thread of the process (main and workers): what the run costs whatever else the machine does.
      const used = process.cpuUsage(c0);
      cpu.push((used.user + used.system) / 1e6);
      if (run.report.turns !== turns) throw new Error(`replay counted ${run.report.turns} of ${turns} turns`);
      volunteered = run.report.thresholds[2]!.volunteered;
      sessions = run.report.sessions;
    }
    return [
      {
        name: `replay: ${turns.toLocaleString('en')} logged turns, ${pageCount.toLocaleString('en')}-page brain, ${gates.length} gates`,
        median: median(seconds),
        unit: 's',
        runs: seconds,
        extra: {
          workers,
          sessions,
          'turns/s': Math.round(turns / median(seconds)),
          'volunteered at 0.7': volunteered,
          'cpu s (all threads)': Number(median(cpu).toFixed(1)),
          'load average at start': load.map((l) => l.toFixed(1)).join(' / '),
        },
      },
    ];
  } finally {
    await db.close();
    rmSync(home, { recursive: true, force: true });
  }
}
