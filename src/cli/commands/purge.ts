import type { Command } from 'commander';
import { BrainstreamError, UsageError } from '../../errors.js';
import { retentionDays } from '../../../projections/purge-schedule.js';
import { purgeQuietly } from '../../../projections/volunteer-purge.js';
import { parseIntegerFlag, parseNumberFlag } from '../flags.js';
import { commandContext } from '../globals.js';
import { outJson, outLine } from '../output.js';
import { progressBar } from '../progress.js';
import { withBrain } from '../with-brain.js';

interface Flags {
  ttlDays?: string;
  dryRun?: boolean;
  batchSize?: string;
  json?: boolean;
}

export function registerPurge(program: Command): void {
  program
    .command('purge')
    .description('delete volunteered events older than the retention (memory.volunteer.retention_days, default 90)')
    .option('--ttl-days <n>', 'retention in days for this run (whole days ≥ 1)')
    .option('--dry-run', 'count what would be deleted; delete nothing')
    .option('--batch-size <n>', 'rows per transaction (default 1000)')
    .option('--json', 'print {"purged":n}')
    .action(async (flags: Flags, cmd: Command) => {
      const ctx = commandContext(cmd);
      if (ctx.caller.kind === 'remote') throw new BrainstreamError('owner_only', 'purge is an owner-only command');
      const ttl = parseNumberFlag('--ttl-days', flags.ttlDays);
      if (ttl !== undefined && ttl < 1) throw new UsageError(`--ttl-days expects a number of days of at least 1, got ${JSON.stringify(flags.ttlDays)}`);
      const batchSize = parseIntegerFlag('--batch-size', flags.batchSize);
      if (batchSize !== undefined && batchSize < 1) throw new UsageError(`--batch-size expects a whole number of at least 1, got ${JSON.stringify(flags.batchSize)}`);
      const ttlDays = Math.floor(ttl ?? retentionDays(ctx.home));
      const result = await withBrain(ctx.home, async (brain) => {
        const bar = progressBar('purge');
        try {
          return await purgeQuietly(brain, { ttlDays, batchSize, dryRun: flags.dryRun === true, onProgress: (done, total) => bar.update(done, total) });
        } finally {
          bar.stop();
        }
      });
      if (flags.dryRun) {
        const would = result.wouldPurge ?? 0;
        if (ctx.json) outJson({ purged: 0, would_purge: would, dry_run: true, purged_before: result.purgedBefore });
        else outLine(`would purge ${would} stale volunteer event(s) (volunteered before ${result.purgedBefore})`);
        return;
      }
      if (ctx.json) outJson({ purged: result.purged });
      else outLine(`purged ${result.purged} stale volunteer event(s)`);
    });
}
