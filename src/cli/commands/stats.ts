import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { listSources } from '../../../projections/pages-queries.js';
import { renderStatsCsv, renderStatsTable, STATS_FORMATS, type StatsFormat } from '../../stats/usage-stats-format.js';
import { DEFAULT_STATS_BY, queryUsageStats, STATS_DIMENSIONS, type StatsDimension } from '../../stats/usage-stats-query.js';
import { parseDateFlag, utcDay } from '../date-flag.js';
import { statsSources } from '../../ops/caller-scope.js';
import { commandContext } from '../globals.js';
import { out, outJson } from '../output.js';
import { withBrain } from '../with-brain.js';

interface Flags {
  by?: string;
  since?: string;
  until?: string;
  format?: string;
  json?: boolean;
}

function parseBy(value: string | undefined): StatsDimension[] {
  if (value === undefined) return [...DEFAULT_STATS_BY];
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const valid = Object.keys(STATS_DIMENSIONS);
  if (names.length === 0) throw new UsageError(`--by expects one or more of ${valid.join(', ')}, got ${JSON.stringify(value)}`);
  for (const n of names) {
    if (!valid.includes(n)) throw new UsageError(`--by: unknown dimension ${JSON.stringify(n)} (dimensions: ${valid.join(', ')})`);
  }
  if (new Set(names).size !== names.length) throw new UsageError(`--by names a dimension twice: ${JSON.stringify(value)}`);
  return names as StatsDimension[];
}

function parseFormat(flags: Flags): StatsFormat {
  if (flags.json && flags.format !== undefined && flags.format !== 'json') throw new UsageError(`--json contradicts --format ${flags.format}`);
  const format = flags.format ?? (flags.json ? 'json' : 'table');
  if (!(STATS_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format expects ${STATS_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  return format as StatsFormat;
}

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('usage statistics of volunteered pages (both attributions), grouped for batch queries')
    .option('--by <dims>', `group by (comma-separated): ${Object.keys(STATS_DIMENSIONS).join(',')} (default all)`)
    .option('--since <date>', 'first UTC day included (YYYY-MM-DD)')
    .option('--until <date>', 'last UTC day included (YYYY-MM-DD)')
    .option('--format <f>', 'table (default), json or csv')
    .option('--json', 'same as --format json')
    .option('--source <id>', 'only this source (default: every source you can read)')
    .action(async (flags: Flags, cmd: Command) => {
      const ctx = commandContext(cmd);
      const by = parseBy(flags.by);
      const format = parseFormat(flags);
      const since = parseDateFlag('--since', flags.since);
      const until = parseDateFlag('--until', flags.until, new Date(), { end: true });
      const sinceDay = since === undefined ? null : utcDay(since);
      const untilDay = until === undefined ? null : utcDay(until);
      if (sinceDay !== null && untilDay !== null && sinceDay > untilDay) {
        throw new UsageError(`the range is reversed: --since ${sinceDay} is after --until ${untilDay}`);
      }
      const result = await withBrain(ctx.home, async (brain) => {
        const sources = statsSources(ctx.caller, ctx.sourceGiven ? [ctx.caller.source] : null, await listSources(brain.db));
        return queryUsageStats(brain.db, { by, since: sinceDay, until: untilDay, sources });
      });
      if (format === 'json') outJson(result);
      else if (format === 'csv') out(renderStatsCsv(result));
      else out(renderStatsTable(result));
    });
}
