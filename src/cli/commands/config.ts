import type { Command } from 'commander';
import { configGet, configSet } from '../../config/config-ops.js';
import { BrainstreamError } from '../../errors.js';
import { commandContext } from '../globals.js';
import { outLine } from '../output.js';

export function registerConfig(program: Command): void {
  const config = program.command('config').description('read and change settings (<home>/config.json)');

  config
    .command('get')
    .description('print a setting: the stored value, else its default (empty line when unset)')
    .argument('<key>')
    .option('--json', 'errors as a JSON envelope on stdout')
    .action((key: string, _o, cmd: Command) => {
      const ctx = commandContext(cmd);
      outLine(configGet(ctx.home, key));
    });

  config
    .command('set')
    .description('change a setting (validated; --force stores any value, for recovery and testing)')
    .argument('<key>')
    .argument('<value>')
    .option('--force', 'store without validation')
    .option('--json', 'errors as a JSON envelope on stdout')
    .action((key: string, value: string, opts: { force?: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      if (ctx.caller.kind !== 'owner') throw new BrainstreamError('owner_only', 'config set is an owner-only command; ask the user to run it on the brain host');
      outLine(configSet(ctx.home, key, value, { force: opts.force === true }));
    });
}
