import type { Command } from 'commander';
import { registerDemo } from './commands/demo.js';
import { registerImport } from './commands/import.js';
import { registerPage } from './commands/page.js';
import { registerVolunteerContext } from './commands/volunteer-context.js';
import { registerWatch } from './commands/watch.js';

/** Every command of the CLI, one file each under commands/. */
export function registerCommands(program: Command): void {
  registerDemo(program);
  registerImport(program);
  registerPage(program);
  registerVolunteerContext(program);
  registerWatch(program);
}
