import type { Command } from 'commander';
import type { RunCommand } from '../serve/command-host.js';
import { registerBootstrap } from './commands/bootstrap.js';
import { registerCall } from './commands/call.js';
import { registerCompileContext } from './commands/compile-context.js';
import { registerConfig } from './commands/config.js';
import { registerConsume } from './commands/consume.js';
import { registerCore } from './commands/core.js';
import { registerDemo } from './commands/demo.js';
import { registerDoctor } from './commands/doctor.js';
import { registerFacts } from './commands/facts.js';
import { registerForget } from './commands/forget.js';
import { registerHook } from './commands/hook.js';
import { registerImport } from './commands/import.js';
import { registerLag } from './commands/lag.js';
import { registerMigrate } from './commands/migrate.js';
import { registerMcp } from './commands/mcp.js';
import { registerPage } from './commands/page.js';
import { registerPublish } from './commands/publish.js';
import { registerRemember } from './commands/remember.js';
import { registerServe } from './commands/serve.js';
import { registerService } from './commands/service.js';
import { registerPurge } from './commands/purge.js';
import { registerRebuild } from './commands/rebuild.js';
import { registerReplay } from './commands/replay.js';
import { registerStats } from './commands/stats.js';
import { registerVolunteerContext } from './commands/volunteer-context.js';
import { registerWatch } from './commands/watch.js';

/** What commands need from the program that holds them. */
export interface ProgramDeps {
  /** Runs a command line of this program (serve and a watch holding the brain run forwarded commands). */
  runCommand: RunCommand;
}

/** Every command of the CLI, one file each under commands/. */
export function registerCommands(program: Command, deps: ProgramDeps): void {
  registerDemo(program);
  registerImport(program);
  registerPage(program);
  registerVolunteerContext(program);
  registerWatch(program, deps.runCommand);
  registerCall(program);
  registerMcp(program);
  registerHook(program);
  registerBootstrap(program);
  registerDoctor(program);
  registerServe(program, deps.runCommand);
  registerService(program);
  registerCore(program);
  registerConfig(program);
  registerRemember(program);
  registerForget(program);
  registerFacts(program);
  registerCompileContext(program);
  // The feedback loop: usage statistics, retention purge, projection rebuild, replay to retune the gate.
  registerStats(program);
  registerPurge(program);
  registerRebuild(program);
  registerReplay(program);
  // The distributed mode (serve --kafka is above): Kafka producers, consumers and the group's lag.
  registerPublish(program);
  registerConsume(program);
  registerLag(program);
  registerMigrate(program);
}
