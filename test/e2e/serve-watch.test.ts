import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../src/home.js';
import { runCli, runCliAsync, tempDir } from '../support/cli.js';
import { eventually, spawnCli, startServe, writePages } from './serve-harness.js';

const folder = tempDir('bs-watch-src-');

beforeAll(() => {
  writePages(folder.path, { 'people/alice-example': '---\ntitle: Alice Example\n---\nAlice Example is an early founder.\n' });
});
afterAll(() => folder.cleanup());

const CAROL = '---\ntitle: Carol Newman\ntype: person\n---\nCarol Newman joined last week.\n';

/** A long `watch` stays open while a writer runs; the writer's page is volunteered on the next turn. */
async function writerDuringWatch(home: string): Promise<void> {
  const watch = spawnCli(['--home', home, 'watch', '--json', '--session-id', 'long-watch']);
  await eventually(() => (watch.stderr().includes('[watch] session long-watch ready') ? true : undefined));
  watch.write('user: hello there\n');
  watch.write('user: what about Alice Example?\n');
  await eventually(() => (watch.stdout().includes('"slug":"people/alice-example"') ? true : undefined));

  const put = await runCliAsync(['--home', home, 'page', 'put', 'people/carol-newman'], { input: CAROL });
  expect(put).toEqual({ code: 0, stdout: 'put default:people/carol-newman (created)\n', stderr: '' });
  const list = await runCliAsync(['--home', home, 'page', 'list']);
  expect(list.stdout).toBe('default:people/alice-example\tAlice Example\ndefault:people/carol-newman\tCarol Newman\n');

  watch.write('user: please loop in Carol Newman\n');
  const line = await eventually(() => watch.stdout().split('\n').find((l) => l.includes('"slug":"people/carol-newman"')));
  expect(JSON.parse(line)).toMatchObject({ turn: 3, slug: 'people/carol-newman', arm: 'title', session_id: 'long-watch' });
  watch.end();
  expect(await watch.exited, watch.stderr()).toBe(0);
  expect(watch.stdout().trim().split('\n')).toHaveLength(2);
}

describe('watch never blocks writers', () => {
  it('through a running serve', async () => {
    const home = tempDir('bs-watch-serve-');
    try {
      expect(runCli(['--home', home.path, 'import', folder.path]).code).toBe(0);
      const serve = await startServe(home.path);
      try {
        await writerDuringWatch(home.path);
      } finally {
        expect(await serve.stop()).toBe(0);
      }
    } finally {
      home.cleanup();
    }
  });

  it('without serve: the watch serves the socket itself while it runs, and cleans up at EOF', async () => {
    const home = tempDir('bs-watch-host-');
    try {
      expect(runCli(['--home', home.path, 'import', folder.path]).code).toBe(0);
      await writerDuringWatch(home.path);
      for (const f of [homePaths(home.path).socket, homePaths(home.path).secret, homePaths(home.path).lock]) expect(existsSync(f)).toBe(false);
    } finally {
      home.cleanup();
    }
  });

  it('ends a forwarded watch at Ctrl-C with exit 0, its turns decided', async () => {
    const home = tempDir('bs-watch-int-');
    try {
      expect(runCli(['--home', home.path, 'import', folder.path]).code).toBe(0);
      const serve = await startServe(home.path);
      try {
        const watch = spawnCli(['--home', home.path, 'watch', '--session-id', 'ctrl-c']);
        await eventually(() => (watch.stderr().includes('ready') ? true : undefined));
        watch.write('user: tell Alice Example the news\n');
        await eventually(() => (watch.stdout().includes('Alice Example → people/alice-example') ? true : undefined));
        watch.child.kill('SIGINT');
        expect(await watch.exited, watch.stderr()).toBe(0);
      } finally {
        await serve.stop();
      }
    } finally {
      home.cleanup();
    }
  });
});
