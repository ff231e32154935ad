import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

/**
 * `retrieval.reflex.gazetteer` end to end: the same turn names two pages only the gazetteer can
 * find (a digit inside a title, punctuation inside an alias). Unset (the default) and true, both
 * channels volunteer them; `config set … false` gives the spec-exact extraction, which finds
 * neither, while the spec's own arms keep working.
 */
const brain = tempDir('bs-gaz-brain-');
const home = tempDir('bs-gaz-home-');
const bs = (args: string[], input = '') => runCli(['--home', home.path, ...args], { input });

const TURN = 'user: I play Cyberpunk 2077 and CS:GO most nights\n';
const CONTROL = 'user: Alice Example joined the squad\n';
const BOTH = ['media/counter-strike', 'media/cyberpunk-2077'];

function page(rel: string, content: string): void {
  const full = join(brain.path, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
}

const volunteered = (input: string): string[] => {
  const r = bs(['volunteer-context', '--json'], input);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { pages: Array<{ slug: string }> }).pages.map((p) => p.slug);
};

/** `watch --json` over the gazetteer turn then the control turn: `<turn> <slug>` per line. */
const watched = (session: string): string[] => {
  const r = bs(['watch', '--json', '--session-id', session], TURN + CONTROL);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { turn: number; slug: string })
    .map((p) => `${p.turn} ${p.slug}`);
};

beforeAll(() => {
  page('media/cyberpunk-2077.md', '---\ntitle: Cyberpunk 2077\ntype: media\n---\nAn open-world game.\n');
  page('media/counter-strike.md', '---\ntitle: "Counter-Strike: Global Offensive"\ntype: media\naliases: ["CS:GO"]\n---\nA team shooter.\n');
  page('people/alice-example.md', '---\ntitle: Alice Example\ntype: person\n---\nAlice Example is a founder.\n');
  expect(bs(['import', brain.path]).code).toBe(0);
});

afterAll(() => {
  brain.cleanup();
  home.cleanup();
});

// Each case spawns three CLI processes; shared machines can be slow to start them.
describe('retrieval.reflex.gazetteer (issue 8 switch)', () => {
  it('unset: on by default in volunteer-context and watch', () => {
    expect(bs(['config', 'get', 'retrieval.reflex.gazetteer']).stdout).toBe('true\n');
    expect(volunteered(TURN)).toEqual(BOTH);
    expect(watched('gaz-unset')).toEqual(['1 media/counter-strike', '1 media/cyberpunk-2077', '2 people/alice-example']);
  });

  it('true: the same', () => {
    expect(bs(['config', 'set', 'retrieval.reflex.gazetteer', 'true'])).toEqual({ code: 0, stdout: 'retrieval.reflex.gazetteer = true\n', stderr: '' });
    expect(volunteered(TURN)).toEqual(BOTH);
    expect(watched('gaz-true')).toEqual(['1 media/counter-strike', '1 media/cyberpunk-2077', '2 people/alice-example']);
  });

  it('false: spec-exact, neither page, while the spec arms still volunteer', () => {
    expect(bs(['config', 'set', 'retrieval.reflex.gazetteer', 'false'])).toEqual({ code: 0, stdout: 'retrieval.reflex.gazetteer = false\n', stderr: '' });
    expect(bs(['volunteer-context'], TURN)).toMatchObject({ code: 0, stdout: 'Nothing volunteered (no entity cleared the confidence gate).\n' });
    expect(watched('gaz-false')).toEqual(['2 people/alice-example']);
  });
});
