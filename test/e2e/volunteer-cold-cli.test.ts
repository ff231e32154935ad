// `volunteer-context` with no serve: a plain command line is answered from the page snapshot
// before the program loads; it answers exactly as the command does with the brain open, and
// whatever it does not answer itself (bad flags, no usable snapshot) reaches the program.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coldPaths, snapshotCurrent } from '../../src/cold/cold-files.js';
import { runCli, tempDir } from '../support/cli.js';
import { homeSql } from '../support/home-sql.js';
import { writePages } from './serve-harness.js';

const tmp = tempDir('bs-vol-cold-');
const home = join(tmp.path, 'brain');
const env = { BRAINSTREAM_AUTOSTART: '0' };
const vc = (input: string, ...args: string[]) => runCli(['--home', home, 'volunteer-context', ...args], { input, env });
const window = 'user: Alice Example and Bob Sample are coming; the Board Prep is ready.\n';

beforeAll(() => {
  const folder = join(tmp.path, 'pages');
  const pages: Record<string, string> = {
    'people/alice-example': '---\ntitle: Alice Example\ntype: person\n---\nAlice Example is an early founder.\n',
    'people/bob-sample': '---\ntitle: Bob Sample\ntype: person\n---\nBob Sample runs sales.\n',
    'notes/board-prep': '---\ntitle: Board Prep\nvisibility: private\n---\nPrivate board notes.\n',
  };
  writePages(folder, pages);
  const r = runCli(['--home', home, 'import', folder], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(snapshotCurrent(home)).toBe(true);
});

afterAll(() => tmp.cleanup());

describe('volunteer-context without serve', () => {
  it('answers from the snapshot as the open brain does, for the owner and a remote caller, and logs at the next open', async () => {
    const cold = vc(window, '--json', '--session-id', 'cold-s', '--turn', '3');
    const coldRemote = runCli(['--home', home, '--as', 'remote', 'volunteer-context', '--json'], { input: window, env });
    const coldHuman = vc(window, '--max-pages', '1');
    for (const r of [cold, coldRemote, coldHuman]) expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(cold.stdout).pages.map((p: { slug: string }) => p.slug)).toEqual(['people/alice-example', 'people/bob-sample', 'notes/board-prep']);
    // The same calls with the brain open: the snapshot is moved away, so the program answers.
    const { renameSync } = await import('node:fs');
    renameSync(coldPaths(home).snapshot, `${coldPaths(home).snapshot}.away`);
    try {
      expect(vc(window, '--json').stdout).toBe(cold.stdout);
      expect(runCli(['--home', home, '--as', 'remote', 'volunteer-context', '--json'], { input: window, env }).stdout).toBe(coldRemote.stdout);
      expect(vc(window, '--max-pages', '1').stdout).toBe(coldHuman.stdout);
    } finally {
      renameSync(`${coldPaths(home).snapshot}.away`, coldPaths(home).snapshot);
    }
    const rows = await homeSql<{ slug: string; turn: number }>(home, "SELECT slug, turn FROM context_volunteer_events WHERE session_id = 'cold-s' ORDER BY slug");
    expect(rows).toEqual([
      { slug: 'notes/board-prep', turn: 3 },
      { slug: 'people/alice-example', turn: 3 },
      { slug: 'people/bob-sample', turn: 3 },
    ]);
  });

  it('a bad flag or an empty window is refused by the program, word for word', () => {
    expect(vc(window, '--max-pages', '9')).toMatchObject({ code: 2, stdout: '', stderr: 'brainstream: --max-pages expects a whole number from 1 to 5, got "9"\n' });
    expect(vc(window, '--bogus')).toMatchObject({ code: 2, stdout: '' });
    expect(vc('')).toMatchObject({ code: 2, stderr: 'brainstream: window is required unless --stats\n' });
  });

  it('a snapshot that cannot be read: the program answers with the window already read', () => {
    expect(snapshotCurrent(home)).toBe(true);
    writeFileSync(coldPaths(home).snapshot, 'not a snapshot');
    const r = vc(window, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).pages.map((p: { slug: string }) => p.slug)).toEqual(['people/alice-example', 'people/bob-sample', 'notes/board-prep']);
  });
});
