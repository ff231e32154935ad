import type { Command } from 'commander';
import { runDoctor, renderDoctor, doctorFailed } from '../../doctor/run-doctor.js';
import { doctorSources } from '../../ops/caller-scope.js';
import { commandContext } from '../globals.js';
import { out, outJson, setExitCode } from '../output.js';
import { withBrain } from '../with-brain.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check the brain and its integrations; exit 1 iff a check fails')
    .option('--source <id>', 'scope the checks to one source')
    .option('--json', 'print {"checks":[…]}')
    .action(async (_o, cmd: Command) => {
      const ctx = commandContext(cmd);
      const sources = doctorSources(ctx.caller, ctx.sourceGiven);
      const checks = await withBrain(ctx.home, (brain) => runDoctor({ home: ctx.home, caller: ctx.caller, db: brain.db, sources, now: new Date() }));
      if (ctx.json) outJson({ checks });
      else out(renderDoctor(checks));
      if (doctorFailed(checks)) setExitCode(1);
    });
}
