import { z } from 'zod';
import { rebuildProjection, type RebuildReport } from '../../event-log/rebuild-projection.js';
import { findProjection, projectionNames } from '../../../projections/registry.js';
import { defineOperation } from './operation.js';
import { withOpProgress } from './op-progress.js';

const Report = z.looseObject({
  projection: z.string().describe('The projection rebuilt.'),
  position: z.number().int().describe('Log position the rebuilt tables reflect.'),
  rows: z.record(z.string(), z.number()).describe('Rows per rebuilt table.'),
  diffs: z.array(z.looseObject({ table: z.string(), removed: z.number(), added: z.number() })).describe('Per table: rows that differed.'),
  changed: z.number().int().describe('Rows the swap changed (or, with check, would have); 0 = identical.'),
  swapped: z.boolean().describe('Whether the rebuilt tables replaced the live ones.'),
});

/** `rebuild`: the owner rebuilds projections from sequence 0 into shadow tables, then swaps (`brainstream rebuild`). */
export const rebuildOp = defineOperation({
  name: 'rebuild',
  title: 'Rebuild projections from the log',
  description: 'Rebuild projections from sequence 0 into shadow tables and swap them in, or compare only (owner only).',
  params: z.strictObject({
    projections: z
      .array(z.enum(projectionNames() as [string, ...string[]]))
      .optional()
      .describe(`Projections to rebuild (${projectionNames().join(', ')}). Default: all.`),
    check: z.boolean().optional().describe('Rebuild and compare only; leave the live tables as they are.'),
  }),
  result: z.looseObject({ projections: z.array(Report).describe('One report per projection, in the order asked.') }),
  effect: { readOnly: false, destructive: false, idempotent: true },
  access: 'owner',
  refusal: 'rebuild is an owner-only command',
  async run(ctx, p) {
    const names = p.projections && p.projections.length > 0 ? [...new Set(p.projections)] : projectionNames();
    const reports: RebuildReport[] = [];
    for (const name of names) {
      const target = findProjection(name)!;
      reports.push(
        await withOpProgress(ctx.progress, `rebuild ${name}`, (onProgress) =>
          rebuildProjection(ctx.brain.db, ctx.brain.log, target, { check: p.check === true, onProgress: (at, end) => onProgress(at - 1, end - 1) }),
        ),
      );
    }
    return { projections: reports };
  },
});
