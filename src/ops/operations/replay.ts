import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { pushSettings } from '../../config/push-settings.js';
import { MatchArm } from '../../domain/event-schemas.js';
import { RANGES, rangedNumber } from '../../context/number-ranges.js';
import { runReplay } from '../../replay/replay.js';
import type { ReplaySource } from '../../replay/turn-source.js';
import { readConfigFile } from '../../config/config-file.js';
import { embeddedReplaySource, withKafkaReplaySource } from '../replay-sources.js';
import { defineHostOperation } from './operation.js';
import { withOpProgress } from './op-progress.js';

/** `replay`: the owner re-runs the volunteer decision over the logged turns at several gates (`brainstream replay`). */
export const replayOp = defineHostOperation({
  name: 'replay',
  title: 'Replay the volunteer decision over the logged turns',
  description: 'Re-run the streaming volunteer decision over every logged turn at several gates and score each; writes nothing (owner only: it reads every conversation).',
  params: z.strictObject({
    gates: z.array(rangedNumber(RANGES.minConfidence)).min(1).describe('Confidence gates to try.'),
    since: z.number().int().nullable().optional().describe('Count turns from this event time on (ms since the epoch); earlier turns still build session state.'),
    arms: z.array(MatchArm).nullable().optional().describe('Report only these arms. Default: every arm that fired.'),
    max_pages: rangedNumber(RANGES.maxPages).optional().describe('Cap per turn for every session. Default: each session’s own.'),
    workers: z.number().int().min(0).optional().describe('Worker threads deciding in parallel (0 = this thread). Default: CPUs, at most 4.'),
    remote: z.boolean().optional().describe('Decide as for remote traffic: private pages are never volunteered.'),
    learned: z.boolean().optional().describe('Also run the learning gate on the same turns and compare.'),
    kafka: z
      .strictObject({ brokers: z.array(z.string()).min(1).describe('Kafka brokers, host:port.'), topic_prefix: z.string().describe('The deployment’s topic prefix.') })
      .optional()
      .describe('Replay this distributed log instead of the embedded one (implies remote).'),
  }),
  result: z.looseObject({
    turns: z.number().int().describe('Turns counted.'),
    sessions: z.number().int().describe('Sessions they belong to.'),
    thresholds: z.array(z.looseObject({})).describe('One scored row per gate.'),
  }),
  effect: { readOnly: true, destructive: false, idempotent: true },
  access: 'owner',
  refusal: 'replay is an owner-only command',
  runsOn: 'host',
  async run(ctx, p) {
    const settings = pushSettings(ctx.home === null ? {} : readConfigFile(ctx.home));
    const replay = (source: ReplaySource) =>
      withOpProgress(ctx.progress, 'replay', (onProgress) =>
        runReplay(source, {
          gates: p.gates,
          since: p.since ?? null,
          arms: p.arms ?? null,
          maxPages: p.max_pages,
          workers: p.workers ?? Math.min(4, availableParallelism()),
          learned: p.learned === true,
          windowTurns: settings.windowTurns,
          lexicalArms: settings.lexicalArms,
          gazetteer: settings.gazetteer,
          // The Kafka processors decide as for remote traffic: private pages are never volunteered.
          remote: p.remote === true || p.kafka !== undefined,
          onProgress,
        }),
      );
    const run = p.kafka
      ? await withKafkaReplaySource({ brokers: p.kafka.brokers, topicPrefix: p.kafka.topic_prefix }, replay)
      : await ctx.withBrain(async (brain) => replay(await embeddedReplaySource(brain)));
    return run.report;
  },
});
