import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { RebuildReport } from '../../event-log/rebuild-projection.js';
import { findProjection, projectionNames } from '../../../projections/registry.js';
import { commandContext } from '../globals.js';
import { outJson, outLine, setExitCode } from '../output.js';
import { runCommandOperation } from '../run-operation.js';

function describe(r: RebuildReport): string {
  const rows = Object.entries(r.rows).map(([t, n]) => `${t} ${n}`).join(', ');
  const differing = r.diffs.filter((d) => d.removed + d.added > 0).map((d) => `${d.table}: ${d.removed} removed, ${d.added} added`);
  if (!r.swapped) {
    return r.changed === 0
      ? `checked ${r.projection}: identical to a rebuild from sequence 0 (${rows} rows)`
      : `checked ${r.projection}: ${r.changed} row(s) differ from a rebuild from sequence 0 (${differing.join('; ')})`;
  }
  const changed = r.changed === 0 ? 'no row changed' : `${r.changed} row(s) changed${differing.length ? ` (${differing.join('; ')})` : ''}`;
  return `rebuilt ${r.projection} up to position ${r.position}: ${rows} rows, ${changed}`;
}

export function registerRebuild(program: Command): void {
  program
    .command('rebuild')
    .description(`rebuild projections from sequence 0 into shadow tables, then swap (${projectionNames().join(', ')}; default all)`)
    .argument('[projection...]', 'projections to rebuild')
    .option('--check', 'rebuild and compare only; leave the live tables as they are (exit 1 when they differ)')
    .option('--json', 'print the reports as JSON')
    .action(async (names: string[], flags: { check?: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const wanted = names.length > 0 ? [...new Set(names)] : projectionNames();
      for (const n of wanted) {
        if (!findProjection(n)) throw new UsageError(`unknown projection ${JSON.stringify(n)} (projections: ${projectionNames().join(', ')})`);
      }
      const { projections: reports } = await runCommandOperation<{ projections: RebuildReport[] }>(ctx, 'rebuild', { projections: wanted, check: flags.check === true });
      if (ctx.json) outJson({ projections: reports });
      else for (const r of reports) outLine(describe(r));
      if (flags.check && reports.some((r) => r.changed > 0)) setExitCode(1);
    });
}
