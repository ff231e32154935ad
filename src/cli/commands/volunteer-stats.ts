import { UsageError } from '../../errors.js';
import { listSources } from '../../../projections/pages-queries.js';
import { volunteerStatsScope } from '../../ops/caller-scope.js';
import { RANGES } from '../../context/number-ranges.js';
import { DEFAULT_STATS_DAYS, renderVolunteerStats, volunteerStats, type Attribution } from '../../stats/volunteer-stats.js';
import { parseRangedFlag } from '../flags.js';
import type { CommandContext } from '../globals.js';
import { out, outJson } from '../output.js';
import { withBrain } from '../with-brain.js';

/** `volunteer-context --stats`: scope = the caller's readable sources (owner: the resolved source). */
export async function runStats(ctx: CommandContext, flags: { days?: string; attribution?: string }): Promise<void> {
  const days = parseRangedFlag('--days', flags.days, RANGES.days) ?? DEFAULT_STATS_DAYS;
  const attribution = (flags.attribution ?? 'approximate') as Attribution;
  if (attribution !== 'approximate' && attribution !== 'session') {
    throw new UsageError(`--attribution expects approximate or session, got ${JSON.stringify(flags.attribution)}`);
  }
  const stats = await withBrain(ctx.home, async (brain) => {
    const scope = volunteerStatsScope(ctx.caller, await listSources(brain.db));
    return volunteerStats(brain.db, scope, days, attribution);
  });
  if (ctx.json) outJson(stats);
  else out(renderVolunteerStats(stats));
}
