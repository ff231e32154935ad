// The table of environment variables (rendered into docs/cli.md) names exactly the variables
// the source reads: a new one fails here until it is described, a removed one until it is dropped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_VARIABLES } from '../../../src/config/environment-variables.js';
import { ENV_OVERRIDES } from '../../../src/config/push-settings.js';

const SRC = fileURLToPath(new URL('../../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Names read as `env.NAME`, `env().NAME` (process.env or an injected env), and every `BRAINSTREAM_…` name. */
function namesReadInSource(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    if (file.endsWith('environment-variables.ts')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\benv(?:\(\))?\.([A-Z][A-Z0-9_]*)\b/g)) names.add(m[1]!);
    // A name ending in `_` is a prefix (every BRAINSTREAM_ variable is forwarded to serve), not a variable.
    for (const m of text.matchAll(/\bBRAINSTREAM_[A-Z0-9_]*[A-Z0-9]\b/g)) names.add(m[0]);
  }
  return names;
}

describe('ENVIRONMENT_VARIABLES', () => {
  const table = ENVIRONMENT_VARIABLES.map((v) => v.name);

  it('names every variable the source reads, and no other', () => {
    const read = [...namesReadInSource()].sort();
    expect(read).toContain('BRAINSTREAM_HOME');
    expect(read).toContain('KAFKA_BROKERS');
    expect(
      [...table].sort(),
      'describe each variable the source reads in src/config/environment-variables.ts (and drop those it no longer reads), then run `node dist/scripts/cli-reference.js`',
    ).toEqual(read);
  });

  it('holds the overrides push settings read', () => {
    for (const { name } of ENV_OVERRIDES.values()) expect(table).toContain(name);
  });

  it('gives each variable once, with a one-line meaning', () => {
    expect(new Set(table).size).toBe(table.length);
    for (const { name, meaning } of ENVIRONMENT_VARIABLES) {
      expect(meaning.trim(), name).not.toBe('');
      expect(meaning, name).not.toMatch(/\n/);
    }
  });
});
