import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { MatchArm } from '../../domain/event-schemas.js';
import { RANGES } from '../../context/number-ranges.js';
import { UsageError } from '../../errors.js';
import { renderReplayPlot } from '../../replay/replay-plot.js';
import type { ReplayReport } from '../../replay/replay-report.js';
import { renderReplay } from '../../replay/replay-render.js';
import { parseThresholdRange } from '../../replay/threshold-range.js';
import { parseDateFlag } from '../date-flag.js';
import { parseIntegerFlag, parseRangedFlag } from '../flags.js';
import { commandContext } from '../globals.js';
import { kafkaSettings } from '../kafka-flags.js';
import { errLine, out, outJson } from '../output.js';
import { runCommandOperation } from '../run-operation.js';

interface Flags {
  minConfidence?: string;
  since?: string;
  arms?: string;
  maxPages?: string;
  plot?: string;
  workers?: string;
  remote?: boolean;
  learned?: boolean;
  json?: boolean;
  kafka?: string | boolean;
  topicPrefix?: string;
}

const DEFAULT_SWEEP = '0.6:0.9:0.05';

function parseArms(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const arms = [...new Set(value.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  if (arms.length === 0) throw new UsageError(`--arms expects one or more of ${MatchArm.options.join(', ')}, got ${JSON.stringify(value)}`);
  for (const a of arms) {
    if (!(MatchArm.options as readonly string[]).includes(a)) throw new UsageError(`--arms: unknown arm ${JSON.stringify(a)} (arms: ${MatchArm.options.join(', ')})`);
  }
  return arms;
}

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('re-run the streaming volunteer decision over the logged turns at several gates and score each (writes nothing)')
    .option('--min-confidence <range>', `gates to try, START:END:STEP or one value (default ${DEFAULT_SWEEP})`)
    .option('--since <date>', 'count turns from this UTC day or time on (earlier turns still build session state)')
    .option('--arms <list>', `report only these arms (${MatchArm.options.join(',')})`)
    .option('--max-pages <n>', 'cap per turn for every session (default: each session’s own, else 3)')
    .option('--plot <file.svg>', 'write an SVG plot of precision and volume against the gate')
    .option('--workers <n>', 'worker threads deciding in parallel (0 = this thread; default: CPUs, at most 4)')
    .option('--remote', 'decide as for remote traffic (serve over Kafka): private pages are never volunteered')
    .option('--learned', 'also run the learning gate (retrieval.reflex.learning) on the same turns and compare it with the static gate')
    .option('--json', 'print the report as JSON')
    .option('--kafka [brokers]', 'replay the distributed log (Kafka; default KAFKA_BROKERS) instead of the embedded one; implies --remote')
    .option('--topic-prefix <prefix>', 'with --kafka: the deployment’s topic prefix (default: brainstream.)')
    .action(async (flags: Flags, cmd: Command) => {
      const ctx = commandContext(cmd);
      const gates = parseThresholdRange('--min-confidence', flags.minConfidence ?? DEFAULT_SWEEP);
      const since = parseDateFlag('--since', flags.since) ?? null;
      const arms = parseArms(flags.arms);
      const maxPages = parseRangedFlag('--max-pages', flags.maxPages, RANGES.maxPages);
      const workers = parseIntegerFlag('--workers', flags.workers) ?? Math.min(4, availableParallelism());
      if (workers < 0) throw new UsageError(`--workers expects a whole number of at least 0, got ${JSON.stringify(flags.workers)}`);
      const kafka = flags.kafka !== undefined ? kafkaSettings(flags) : null;
      // The replay reads every logged conversation turn: the operation is the owner's alone.
      const report = await runCommandOperation<ReplayReport>(ctx, 'replay', {
        gates, since, arms, max_pages: maxPages, workers, remote: flags.remote === true, learned: flags.learned === true,
        ...(kafka ? { kafka: { brokers: kafka.brokers, topic_prefix: kafka.topicPrefix } } : {}),
      });
      let plot: string | null = null;
      if (flags.plot !== undefined) {
        plot = resolve(flags.plot);
        writeFileSync(plot, renderReplayPlot(report));
      }
      if (ctx.json) outJson({ ...report, ...(plot ? { plot } : {}) });
      else {
        out(renderReplay(report));
        if (plot) errLine(`plot written to ${plot}`);
      }
    });
}
