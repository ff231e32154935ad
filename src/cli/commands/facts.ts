import type { Command } from 'commander';
import { factsList } from '../../ops/facts-list.js';
import { commandContext } from '../globals.js';
import { outJson, outLine } from '../output.js';
import { withBrain } from '../with-brain.js';
import { slugArg } from './core.js';

export function registerFacts(program: Command): void {
  const facts = program.command('facts').description('the fact store behind remember and forget');

  facts
    .command('list')
    .description('stored facts you can read, newest first')
    .option('--entity <slug>', 'only facts about this page')
    .option('--source <id>', 'only this source')
    .option('--include-forgotten', 'also list withdrawn (forgotten or superseded) facts')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { entity?: string; includeForgotten?: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const entity = opts.entity === undefined ? null : slugArg(opts.entity);
      const r = await withBrain(ctx.home, (brain) =>
        factsList(brain, ctx.caller, { source: ctx.sourceGiven ? ctx.caller.source : null, entity, includeForgotten: opts.includeForgotten === true }),
      );
      if (ctx.json) outJson(r);
      else for (const f of r.facts) outLine(`${f.id}  ${f.entity ?? '-'}  ${f.kind}  ${f.forgotten ? `~~${f.fact}~~` : f.fact}`);
    });
}
