import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { readConfigFile } from '../../config/config-file.js';
import { pushSettings } from '../../config/push-settings.js';
import { MatchArm } from '../../domain/event-schemas.js';
import { RANGES } from '../../context/number-ranges.js';
import { BrainstreamError, UsageError } from '../../errors.js';
import { EmbeddedReplaySource } from '../../replay/embedded-turn-source.js';
import { renderReplayPlot } from '../../replay/replay-plot.js';
import { renderReplay } from '../../replay/replay-render.js';
import { runReplay } from '../../replay/replay.js';
import { parseThresholdRange } from '../../replay/threshold-range.js';
import type { ReplaySource } from '../../replay/turn-source.js';
import { parseDateFlag } from '../date-flag.js';
import { parseIntegerFlag, parseRangedFlag } from '../flags.js';
import { commandContext } from '../globals.js';
import { errLine, out, outJson } from '../output.js';
import { progressBar } from '../progress.js';
import { withBrain } from '../with-brain.js';
import { withKafkaReplaySource } from './replay-kafka.js';

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
      // The replay reads every logged conversation turn: the owner's data only.
      if (ctx.caller.kind === 'remote') throw new BrainstreamError('owner_only', 'replay is an owner-only command');
      const gates = parseThresholdRange('--min-confidence', flags.minConfidence ?? DEFAULT_SWEEP);
      const since = parseDateFlag('--since', flags.since) ?? null;
      const arms = parseArms(flags.arms);
      const maxPages = parseRangedFlag('--max-pages', flags.maxPages, RANGES.maxPages);
      const workers = parseIntegerFlag('--workers', flags.workers) ?? Math.min(4, availableParallelism());
      if (workers < 0) throw new UsageError(`--workers expects a whole number of at least 0, got ${JSON.stringify(flags.workers)}`);
      const settings = pushSettings(readConfigFile(ctx.home));
      const replay = async (source: ReplaySource) => {
        const bar = progressBar('replay');
        try {
          return await runReplay(source, {
            gates, since, arms, maxPages, workers, learned: flags.learned === true,
            // The Kafka processors decide as for remote traffic: private pages are never volunteered.
            windowTurns: settings.windowTurns, lexicalArms: settings.lexicalArms, gazetteer: settings.gazetteer, remote: flags.remote === true || flags.kafka !== undefined,
            onProgress: (done, total) => bar.update(done, total),
          });
        } finally {
          bar.stop();
        }
      };
      const run = flags.kafka !== undefined
        ? await withKafkaReplaySource(flags, replay)
        : await withBrain(ctx.home, async (brain) => replay(await EmbeddedReplaySource.open(brain.db)));
      let plot: string | null = null;
      if (flags.plot !== undefined) {
        plot = resolve(flags.plot);
        writeFileSync(plot, renderReplayPlot(run.report));
      }
      if (ctx.json) outJson({ ...run.report, ...(plot ? { plot } : {}) });
      else {
        out(renderReplay(run.report));
        if (plot) errLine(`plot written to ${plot}`);
      }
    });
}
