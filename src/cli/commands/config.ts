import type { Command } from 'commander';
import { configGet, configList, type ConfigListEntry } from '../../config/config-ops.js';
import { formatConfigValue, legacySpellingNote } from '../../core-memory/config-set.js';
import { commandContext } from '../globals.js';
import { errLine, outJson, outLine } from '../output.js';
import { runCommandOperation } from '../run-operation.js';

/** Tells the user the current spelling of an old key name (stderr, so output stays parseable). */
function noteLegacySpelling(key: string): void {
  const note = legacySpellingNote(key);
  if (note !== null) errLine(`brainstream: note: ${note}`);
}

/** Where a value comes from, with what config.json holds when that is not what is used. */
function sourceText(e: ConfigListEntry): string {
  const notes: string[] = [];
  if (e.stored_as !== undefined) notes.push(`as ${e.stored_as}`);
  if (e.stored !== undefined) notes.push(e.source === 'env' ? `config.json holds ${JSON.stringify(e.stored)}` : `${JSON.stringify(e.stored)} is not allowed`);
  const where = e.source === 'env' ? `env ${e.env}` : e.source === 'config' ? 'config.json' : 'default';
  return notes.length === 0 ? where : `${where} (${notes.join('; ')})`;
}
const shown = (v: unknown): string => (v === null || v === undefined ? '(unset)' : formatConfigValue(v));

/** Aligned columns: key, value in use, default, where the value comes from. */
function configTable(entries: readonly ConfigListEntry[]): string[] {
  const rows = [['KEY', 'VALUE', 'DEFAULT', 'FROM'], ...entries.map((e) => [e.key, shown(e.value), shown(e.default), sourceText(e)])];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('  '));
}

export function registerConfig(program: Command): void {
  const config = program.command('config').description('read and change settings (<home>/config.json)');

  config
    .command('get')
    .description('print a setting: the stored value, else its default (empty line when unset)')
    .argument('<key>', 'the setting, e.g. memory.core.enabled (config list shows them all)')
    .option('--json', 'errors as a JSON envelope on stdout')
    .action((key: string, _o, cmd: Command) => {
      const ctx = commandContext(cmd);
      noteLegacySpelling(key);
      outLine(configGet(ctx.home, key));
    });

  config
    .command('list')
    .description('print every setting: the value in use, its default, and where the value comes from (default, config.json or an environment variable)')
    .option('--json', 'one JSON array of {key, value, default, source, env?, stored?, stored_as?}')
    .action((opts: { json?: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const entries = configList(ctx.home);
      if (opts.json) outJson(entries);
      else for (const line of configTable(entries)) outLine(line.trimEnd());
    });

  config
    .command('set')
    .description('change a setting (validated; --force stores any value, for recovery and testing)')
    .argument('<key>', 'the setting, e.g. memory.core.enabled (config list shows them all)')
    .argument('<value>', 'its new value (true/false, a number or text, as the setting expects)')
    .option('--force', 'store without validation')
    .option('--json', 'errors as a JSON envelope on stdout')
    .action(async (key: string, value: string, opts: { force?: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      let line: string;
      try {
        ({ line } = await runCommandOperation<{ line: string }>(ctx, 'config_set', { key, value, force: opts.force === true }));
      } finally {
        // The note comes with the refusal too: the old spelling is worth knowing either way.
        noteLegacySpelling(key);
      }
      outLine(line);
    });
}
