// docs/cli.md is rendered from the command definitions; these tests keep the committed file
// equal to what the definitions render now, and every command in it.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { cellText, renderCliReference } from '../../../scripts/render-cli-reference.js';
import { buildProgram } from '../../../src/cli/program.js';
import { ENVIRONMENT_VARIABLES } from '../../../src/config/environment-variables.js';

const committed = (): string => readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
const rendered = (): string => renderCliReference(buildProgram(), ENVIRONMENT_VARIABLES);

/** Every command of the program with its full name, walked here rather than by the renderer. */
function commandNames(cmd: Command, prefix: string): string[] {
  return cmd.commands.flatMap((sub) => [`${prefix} ${sub.name()}`, ...commandNames(sub, `${prefix} ${sub.name()}`)]);
}

describe('CLI reference', () => {
  it('docs/cli.md is what the command definitions render now', () => {
    expect(
      committed(),
      'docs/cli.md is out of date with the command definitions: run `npm run build && node dist/scripts/cli-reference.js` and commit docs/cli.md',
    ).toBe(rendered());
  });

  it('has a section and an index entry for every command and subcommand', () => {
    const doc = rendered();
    const names = commandNames(buildProgram(), 'brainstream');
    expect(names).toContain('brainstream page get');
    expect(names).toContain('brainstream core ack');
    for (const name of names) {
      expect(doc, `no section for ${name}`).toMatch(new RegExp(`^#{2,6} ${name}$`, 'm'));
      expect(doc, `no index entry for ${name}`).toContain(`[${name}](#${name.replace(/ /g, '-')})`);
    }
  });

  it('lists every option of a command, a required one as required', () => {
    const section = rendered().split(/^## /m).find((s) => s.startsWith('brainstream compile-context\n'))!;
    expect(section).toContain('| `--target <target>` | codex \\| codex-global \\| hermes \\| claude-code | required |');
    expect(section).toContain('| `--include-core` |');
  });

  it('lists the global options once, and every environment variable', () => {
    const doc = rendered();
    expect(doc.match(/^\| `--as <caller>` \|/gm)).toHaveLength(1);
    expect(doc).toContain('| `--as <caller>` | call as the owner or as a remote caller (owner\\|remote) | `"owner"` |');
    for (const { name } of ENVIRONMENT_VARIABLES) expect(doc).toMatch(new RegExp(`^\\| \`${name}\` \\| \\S`, 'm'));
  });

  it('every option and argument of every command says what it is for', () => {
    const undescribed: string[] = [];
    const walk = (cmd: Command, path: string): void => {
      for (const o of cmd.options) if (o.description.trim() === '') undescribed.push(`${path} ${o.flags}`);
      for (const a of cmd.registeredArguments) if (a.description.trim() === '') undescribed.push(`${path} <${a.name()}>`);
      for (const sub of cmd.commands) walk(sub, `${path} ${sub.name()}`);
    };
    walk(buildProgram(), 'brainstream');
    expect(undescribed).toEqual([]);
  });
});

describe('cellText', () => {
  it('keeps a table cell whole and plain text plain', () => {
    expect(cellText('owner|remote')).toBe('owner\\|remote');
    expect(cellText('<home>/config.json')).toBe('&lt;home&gt;/config.json');
    expect(cellText('every *.md under ~/a or ~/b')).toBe('every \\*.md under \\~/a or \\~/b');
  });

  it('leaves code spans as they are, but for the cell separator', () => {
    expect(cellText('read as `import <x>` reads *them*')).toBe('read as `import <x>` reads \\*them\\*');
    expect(cellText('`a|b`')).toBe('`a\\|b`');
  });
});
