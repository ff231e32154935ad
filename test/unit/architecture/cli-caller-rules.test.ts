// Caller rules live in the application layer: an operation's declared access (src/ops/registry.ts),
// a host action's (src/ops/host-actions.ts), and the scoping functions of src/ops/caller-scope.ts.
// A CLI command parses flags, runs the operation and renders its result; this test names any
// command that decides for itself who may do what or see which source.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const COMMANDS = join(ROOT, 'src/cli/commands');

/** What deciding a caller rule looks like: the caller's kind compared, its readable sources worked out, an owner-only refusal thrown. */
const CALLER_RULES: readonly { rule: string; pattern: RegExp }[] = [
  { rule: 'compares caller.kind', pattern: /\bcaller\.kind\b/ },
  { rule: 'calls readableSources', pattern: /\breadableSources\s*\(/ },
  { rule: 'calls canRead', pattern: /\bcanRead\s*\(/ },
  { rule: 'throws owner_only itself', pattern: /['"`]owner_only['"`]/ },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `file: rule` for every caller rule a command file decides itself. */
function callerRulesIn(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((file) => {
    const text = read(file);
    return CALLER_RULES.filter((r) => r.pattern.test(text)).map((r) => `${relative(ROOT, file)}: ${r.rule}`);
  });
}

describe('caller rules in the CLI commands', () => {
  it('no command decides a caller rule: the operations and src/ops/caller-scope.ts do', () => {
    const files = sourceFiles(COMMANDS);
    expect(files.length).toBeGreaterThan(20);
    expect(callerRulesIn(files, (f) => readFileSync(f, 'utf8'))).toEqual([]);
  });

  it('names a command that would (the check sees each kind of rule)', () => {
    const samples: Record<string, string> = {
      [join(COMMANDS, 'a.ts')]: "if (ctx.caller.kind === 'remote') return;",
      [join(COMMANDS, 'b.ts')]: 'const s = readableSources(ctx.caller, all);',
      [join(COMMANDS, 'c.ts')]: 'if (!canRead (ctx.caller, s)) return;',
      [join(COMMANDS, 'd.ts')]: "throw new BrainstreamError('owner_only', 'no');",
      [join(COMMANDS, 'e.ts')]: "const sources = doctorSources(ctx.caller, ctx.sourceGiven);",
    };
    expect(callerRulesIn(Object.keys(samples), (f) => samples[f]!)).toEqual([
      'src/cli/commands/a.ts: compares caller.kind',
      'src/cli/commands/b.ts: calls readableSources',
      'src/cli/commands/c.ts: calls canRead',
      'src/cli/commands/d.ts: throws owner_only itself',
    ]);
  });
});
