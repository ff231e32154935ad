import type { Command } from 'commander';
import { registerImport } from './commands/import.js';
import { registerPage } from './commands/page.js';

/** Every command of the CLI, one file each under commands/. */
export function registerCommands(program: Command): void {
  registerImport(program);
  registerPage(program);
}
