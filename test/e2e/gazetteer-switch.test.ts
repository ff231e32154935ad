import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

/**
 * `retrieval.reflex.gazetteer` end to end: the same turn names two pages only the gazetteer can
 * find (a digit inside a title, punctuation inside an alias). Unset (the default) and true, both
 * channels volunteer them; `config set … false` gives the spec-exact extraction, which finds
 * neither, while the spec's own arms keep working.
 */
const brain = tempDir('bs-gaz-brain-');
const home = tempDir('bs-gaz-home-');
let cli: CliSession;
const bs = (args: string[], input = '') => cli.run(args, { input });

const TURN = 'user: I play Cyberpunk 2077 and CS:GO most nights\n';
const CONTROL = 'user: Alice Example joined the squad\n';
const BOTH = ['media/counter-strike', 'media/cyberpunk-2077'];

function page(rel: string, content: string): void {
  const full = join(brain.path, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
}

const volunteered = async (input: string): Promise<string[]> => {
  const r = await bs(['volunteer-context', '--json'], input);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { pages: Array<{ slug: string }> }).pages.map((p) => p.slug);
};

/** `watch --json` over the gazetteer turn then the control turn: `<turn> <slug>` per line. */
const watched = async (session: string): Promise<string[]> => {
  const r = await bs(['watch', '--json', '--session-id', session], TURN + CONTROL);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { turn: number; slug: string })
    .map((p) => `${p.turn} ${p.slug}`);
};

beforeAll(async () => {
  page('media/cyberpunk-2077.md', '---\ntitle: Cyberpunk 2077\ntype: media\n---\nAn open-world game.\n');
  page('media/counter-strike.md', '---\ntitle: "Counter-Strike: Global Offensive"\ntype: media\naliases: ["CS:GO"]\n---\nA team shooter.\n');
  page('people/alice-example.md', '---\ntitle: Alice Example\ntype: person\n---\nAlice Example is a founder.\n');
  cli = await openCliSession(home.path);
  expect((await bs(['import', brain.path])).code).toBe(0);
});

afterAll(async () => {
  await cli.close();
  brain.cleanup();
  home.cleanup();
});

describe('the retrieval.reflex.gazetteer switch', () => {
  it('unset: on by default in volunteer-context and watch', async () => {
    expect((await bs(['config', 'get', 'retrieval.reflex.gazetteer'])).stdout).toBe('true\n');
    expect(await volunteered(TURN)).toEqual(BOTH);
    expect(await watched('gaz-unset')).toEqual(['1 media/counter-strike', '1 media/cyberpunk-2077', '2 people/alice-example']);
  });

  it('true: the same', async () => {
    expect(await bs(['config', 'set', 'retrieval.reflex.gazetteer', 'true'])).toEqual({ code: 0, stdout: 'retrieval.reflex.gazetteer = true\n', stderr: '' });
    expect(await volunteered(TURN)).toEqual(BOTH);
    expect(await watched('gaz-true')).toEqual(['1 media/counter-strike', '1 media/cyberpunk-2077', '2 people/alice-example']);
  });

  it('false: spec-exact, neither page, while the spec arms still volunteer', async () => {
    expect(await bs(['config', 'set', 'retrieval.reflex.gazetteer', 'false'])).toEqual({ code: 0, stdout: 'retrieval.reflex.gazetteer = false\n', stderr: '' });
    expect(await bs(['volunteer-context'], TURN)).toMatchObject({ code: 0, stdout: 'Nothing volunteered (no entity cleared the confidence gate).\n' });
    expect(await watched('gaz-false')).toEqual(['2 people/alice-example']);
  });
});
