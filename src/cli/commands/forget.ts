import type { Command } from 'commander';
import { forget } from '../../ops/forget.js';
import { commandContext } from '../globals.js';
import { outJson, outLine } from '../output.js';
import { withBrain } from '../with-brain.js';

export function registerForget(program: Command): void {
  program
    .command('forget')
    .description('withdraw a remembered fact (struck from its page, no longer active)')
    .argument('<id>', 'the fact id (see facts list)')
    .option('--reason <text>', 'why (default: user request)')
    .option('--source <id>', 'the source to act on (default: BRAINSTREAM_SOURCE or "default")')
    .option('--json', 'print the result as JSON')
    .action(async (id: string, opts: { reason?: string }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const r = await withBrain(ctx.home, (brain) => forget(brain, ctx.caller, id, opts.reason));
      if (ctx.json) outJson(r);
      else outLine(`${r.status} ${r.id} ${r.status_text}`);
    });
}
