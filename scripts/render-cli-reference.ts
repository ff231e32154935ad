import type { Argument, Command, Help, Option } from 'commander';
import type { EnvironmentVariable } from '../src/config/environment-variables.js';

/**
 * The CLI reference as markdown, rendered from the program's own command definitions (and the
 * table of environment variables), so the reference says what the code does. Pure: it reads
 * the commands' names, arguments and options and runs none of them.
 */
export function renderCliReference(program: Command, environment: readonly EnvironmentVariable[]): string {
  const help = program.createHelp();
  const commands = allCommands(program, help);
  const lines: string[] = [
    `# ${program.name()} command line`,
    '',
    '<!-- Rendered from the command definitions by `node dist/scripts/cli-reference.js`; edit the commands, not this file. -->',
    '',
    sentence(cellText(program.description())),
    '',
    `Every command with its arguments and options. \`${program.name()} help <command>\` (or \`--help\` after any command) prints the same for the installed version.`,
    '',
    '## Global options',
    '',
    fenced(help.commandUsage(program)),
    '',
    'They apply to every command.',
    '',
    ...optionsTable(help.visibleOptions(program), help),
    '',
    '## Commands',
    '',
    ...commands.map(({ cmd, depth }) => `${'  '.repeat(depth)}- [${commandPath(cmd)}](#${anchor(commandPath(cmd))}) — ${cellText(cmd.description())}`),
  ];
  for (const { cmd, depth } of commands) lines.push('', ...commandSection(cmd, depth, help));
  lines.push(
    '',
    '## Environment variables',
    '',
    'A flag given on the command line wins over the variable.',
    '',
    '| Variable | Meaning |',
    '| --- | --- |',
    ...environment.map((v) => `| \`${v.name}\` | ${v.meaning.replace(/\|/g, '\\|')} |`),
  );
  return `${lines.join('\n')}\n`;
}

/** A command's words from the program down, as typed: `brainstream page get`. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Every command below `program`, depth first in definition order; help's own `help` command is not one. */
export function allCommands(program: Command, help: Help = program.createHelp()): { cmd: Command; depth: number }[] {
  const found: { cmd: Command; depth: number }[] = [];
  const walk = (parent: Command, depth: number): void => {
    for (const cmd of help.visibleCommands(parent)) {
      if (!parent.commands.includes(cmd)) continue;
      found.push({ cmd, depth });
      walk(cmd, depth + 1);
    }
  };
  walk(program, 0);
  return found;
}

function commandSection(cmd: Command, depth: number, help: Help): string[] {
  const lines = [`${'#'.repeat(Math.min(depth + 2, 6))} ${commandPath(cmd)}`, '', sentence(cellText(cmd.description())), '', fenced(help.commandUsage(cmd))];
  const aliases = cmd.aliases();
  if (aliases.length > 0) lines.push('', `Also: ${aliases.map((a) => `\`${a}\``).join(', ')}.`);
  if (cmd.registeredArguments.length > 0) lines.push('', ...argumentsTable(cmd.registeredArguments));
  // The help option every command has is listed once, with the global options.
  const own = help.visibleOptions(cmd).filter((o) => cmd.options.includes(o));
  if (own.length > 0) lines.push('', ...optionsTable(own, help));
  const subcommands = help.visibleCommands(cmd).filter((c) => cmd.commands.includes(c));
  if (subcommands.length > 0) lines.push('', `Subcommands: ${subcommands.map((c) => `[${c.name()}](#${anchor(commandPath(c))})`).join(', ')}.`);
  return lines;
}

function argumentsTable(args: readonly Argument[]): string[] {
  return [
    '| Argument | Description | Default |',
    '| --- | --- | --- |',
    ...args.map((a) => `| \`${argumentTerm(a)}\` | ${withChoices(cellText(a.description), a.argChoices)} | ${defaultText(a.defaultValue, a.defaultValueDescription)} |`),
  ];
}

function optionsTable(options: readonly Option[], help: Help): string[] {
  return [
    '| Option | Description | Default |',
    '| --- | --- | --- |',
    ...options.map((o) => {
      const dflt = o.mandatory ? 'required' : defaultText(o.defaultValue, o.defaultValueDescription);
      return `| \`${help.optionTerm(o).replace(/\|/g, '\\|')}\` | ${withChoices(cellText(o.description), o.argChoices)} | ${dflt} |`;
    }),
  ];
}

/** `<name>` when required, `[name]` when not, with `...` when it takes the rest. */
const argumentTerm = (a: Argument): string => {
  const name = `${a.name()}${a.variadic ? '...' : ''}`;
  return a.required ? `<${name}>` : `[${name}]`;
};

/** Markdown of a description, with the values commander accepts when it checks them itself. */
const withChoices = (description: string, choices: readonly string[] | undefined): string =>
  choices && choices.length > 0 ? `${description}${description === '' ? '' : '; '}one of ${choices.map((c) => `\`${c}\``).join(', ')}` : description;

/** Help text is lower case without a full stop; as a paragraph it reads as a sentence. */
const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

/** A default commander applies itself; defaults a description spells out are in the description. */
function defaultText(value: unknown, description: string | undefined): string {
  if (description !== undefined) return `\`${description.replace(/\|/g, '\\|')}\``;
  if (value === undefined) return '';
  return `\`${JSON.stringify(value).replace(/\|/g, '\\|')}\``;
}

/**
 * Plain help text made safe for markdown (and a table cell): `|` would end the cell, `<x>`
 * would be read as HTML, `*.md` as emphasis, two `~` as strikethrough. Text in backticks is
 * already code and kept as it is.
 */
export function cellText(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\*~<>]/g, (c) => ESCAPES[c]!)))
    .join('')
    .replace(/\|/g, '\\|');
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '*': '\\*', '~': '\\~', '<': '&lt;', '>': '&gt;' };

const fenced = (text: string): string => `\`\`\`text\n${text}\n\`\`\``;

/** The id GitHub gives a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const anchor = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
