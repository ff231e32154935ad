import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BrainstreamError } from '../../errors.js';
import { findBash, writeLauncher } from '../../hooks/launcher.js';
import { packageVersion } from '../../package-version.js';
import { pingServe } from '../../serve-client/autostart.js';
import { installService, managerState, serviceTarget, uninstallService, type ServiceTarget } from '../../service/service-manager.js';
import { checkHostAction } from '../../ops/host-actions.js';
import { commandContext } from '../globals.js';
import { outJson, outLine } from '../output.js';

const MANAGER_TEXT = { systemd: 'systemd user unit', launchd: 'launchd agent' } as const;

/**
 * How the service starts serve: bash and the home's launcher, which finds the installation each
 * time it runs, so an upgrade or a moved package keeps the service working.
 */
function serveArgv(home: string): string[] {
  const bash = findBash();
  if (bash === null) throw new BrainstreamError('service_unsupported', 'no bash found to run the brainstream launcher');
  const launcher = writeLauncher(home, { main: fileURLToPath(new URL('../main.js', import.meta.url)), node: process.execPath });
  return [bash, launcher, 'serve', '--home', home];
}

const described = (t: ServiceTarget): string => `${t.name} (${MANAGER_TEXT[t.kind]} ${t.file})`;

export function registerService(program: Command): void {
  const service = program.command('service').description('keep serve running in the background: a systemd user unit (Linux) or a launchd agent (macOS)');

  service
    .command('install')
    .description('write the unit or agent for this home, start serve now and at every login, restart it when it stops (run again to repair or upgrade)')
    .option('--json', 'print {name, manager, file} as JSON')
    .action((opts: { json?: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      checkHostAction('service_install', ctx.caller);
      const target = serviceTarget(ctx.home);
      installService({ home: ctx.home, argv: serveArgv(ctx.home) }, target);
      if (opts.json) outJson({ name: target.name, manager: target.kind, file: target.file });
      else outLine(`service: installed ${described(target)}; serve of ${ctx.home} runs now and at every login`);
    });

  service
    .command('uninstall')
    .description('stop the service of this home and remove its unit or agent (serve is not started again by it)')
    .option('--json', 'print {name, manager, file, removed} as JSON')
    .action((opts: { json?: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      checkHostAction('service_uninstall', ctx.caller);
      const target = serviceTarget(ctx.home);
      const removed = uninstallService(target);
      if (opts.json) outJson({ name: target.name, manager: target.kind, file: target.file, removed });
      else outLine(removed ? `service: removed ${described(target)}` : `service: not installed (no ${target.file})`);
    });

  service
    .command('status')
    .description('whether the service of this home is installed, what its manager says, and whether serve answers')
    .option('--json', 'print {name, manager, file, installed, state, serve} as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const target = serviceTarget(ctx.home);
      const installed = existsSync(target.file);
      const state = installed ? managerState(target) : null;
      const ping = await pingServe(ctx.home, 2_000);
      const serve = ping === null ? { running: false as const } : { running: true as const, pid: ping.pid, version: ping.version, started_at: ping.started_at };
      if (opts.json) {
        outJson({ name: target.name, manager: target.kind, file: target.file, installed, state, serve });
        return;
      }
      outLine(installed ? `service: installed ${described(target)}, ${state ?? `${target.kind} cannot be asked`}` : `service: not installed (install it with: brainstream service install)`);
      outLine(
        ping === null
          ? 'serve: not running'
          : `serve: running (pid ${ping.pid}, version ${ping.version}${ping.version === packageVersion() ? '' : `, this CLI is ${packageVersion()}`}, since ${ping.started_at})`,
      );
    });
}
