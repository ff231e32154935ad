// `brainstream watch` on bad input: a clear message, never a crash, exit codes per the
// contract. Each case runs `watch`
// through the home's serve as the binary forwards it; the last one runs the binary and serve as processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';
import { startServe, writePages } from './serve-harness.js';

const brain = tempDir('bs-watch-bad-brain-');
const home = tempDir('bs-watch-bad-home-');

let cli: CliSession;

beforeAll(async () => {
  const person = (title: string) => `---\ntitle: ${title}\ntype: person\n---\n${title} is someone we know.\n`;
  writePages(brain.path, {
    'people/alice-example': person('Alice Example'),
    'people/bob-sample': person('Bob Sample'),
    'people/carol-demo': person('Carol Demo'),
    'people/dan-trial': person('Dan Trial'),
    'people/erin-probe': person('Erin Probe'),
    'people/fay-check': person('Fay Check'),
    'notes/board-prep': '---\ntitle: Board Prep\nvisibility: private\n---\nPrivate board notes.\n',
  });
  cli = await openCliSession(home.path);
  expect((await cli.run(['import', brain.path])).code).toBe(0);
});

afterAll(() => {
  brain.cleanup();
  home.cleanup();
});

const watch = (input: string | Buffer, session: string, ...args: string[]) => cli.run(['watch', '--json', '--session-id', session, ...args], { input });
const ready = (session: string) => `[watch] session ${session} ready\n`;
/** `[turn, slug]` of every JSON line printed. */
const fired = (stdout: string): Array<[number, string]> =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { turn: number; slug: string })
    .map((l) => [l.turn, l.slug]);
const six = 'user: Alice Example, Bob Sample, Carol Demo, Dan Trial, Erin Probe and Fay Check are coming.\n';

describe('watch on bad input', () => {
  afterAll(async () => {
    await cli.close();
  });

  it('empty stdin: nothing printed, exit 0', async () => {
    expect(await watch('', 'bad-empty')).toEqual({ code: 0, stdout: '', stderr: ready('bad-empty') });
  });

  it('only blank lines: no turns, nothing printed, exit 0', async () => {
    expect(await watch('\n\n   \n\t\r\n \r\n', 'bad-blank')).toEqual({ code: 0, stdout: '', stderr: ready('bad-blank') });
  });

  it('10 MB of input in one line, then a normal turn', async () => {
    const big = `user: ${'lorem ipsum dolor '.repeat(600_000)}\nuser: and Bob Sample?\n`;
    expect(big.length).toBeGreaterThan(10_000_000);
    const r = await watch(big, 'bad-10mb');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(ready('bad-10mb'));
    expect(fired(r.stdout)).toEqual([[2, 'people/bob-sample']]);
  });

  it('an invalid UTF-8 line, then 10 MB outside Latin-1 in one line, then normal turns; volunteer-context too', async () => {
    const big = Buffer.concat([Buffer.from([0xff, 0x0a]), Buffer.from(`user: ${'ж'.repeat(5_000_000)} Bob Sample\nuser: and Carol Demo\n`)]);
    const r = await watch(big, 'bad-10mb-cyrillic');
    expect(r).toMatchObject({ code: 0, stderr: ready('bad-10mb-cyrillic') });
    expect(fired(r.stdout)).toEqual([
      [2, 'people/bob-sample'],
      [3, 'people/carol-demo'],
    ]);
    const once = await cli.run(['volunteer-context', '--json'], { input: big });
    expect(once).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(once.stdout) as { pages: Array<{ slug: string }> }).pages.map((p) => p.slug).sort()).toEqual(['people/bob-sample', 'people/carol-demo']);
  });

  it('a 100 KB single line', async () => {
    const r = await watch(`${'x'.repeat(100_000)} Alice Example\n`, 'bad-100kb');
    expect(r).toMatchObject({ code: 0, stderr: ready('bad-100kb') });
    expect(fired(r.stdout)).toEqual([[1, 'people/alice-example']]);
  });

  it('invalid UTF-8 is read as replacement characters', async () => {
    const bytes = Buffer.concat([Buffer.from('user: caf'), Buffer.from([0xe9, 0xff, 0xc3]), Buffer.from(' with Bob Sample\n')]);
    const r = await watch(bytes, 'bad-utf8');
    expect(r).toMatchObject({ code: 0, stderr: ready('bad-utf8') });
    expect(fired(r.stdout)).toEqual([[1, 'people/bob-sample']]);
  });

  it('NUL bytes are read like invalid bytes: the turn and its neighbours are decided, nothing crashes', async () => {
    const r = await watch('hello\nuser: a\u0000b with Carol Demo\nDan Trial here\n\u0000\nErin Probe too\n', 'bad-nul');
    expect(r).toMatchObject({ code: 0, stderr: ready('bad-nul') });
    // A line holding only a NUL is a (silent) turn, as a line of one invalid byte is.
    expect(fired(r.stdout)).toEqual([
      [2, 'people/carol-demo'],
      [3, 'people/dan-trial'],
      [5, 'people/erin-probe'],
    ]);
  });

  it('unknown role prefixes are plain user text', async () => {
    const r = await watch('system: Carol Demo joined\ntool: Dan Trial output\n  user: Fay Check indented\n', 'bad-roles');
    expect(r).toMatchObject({ code: 0, stderr: ready('bad-roles') });
    expect(fired(r.stdout)).toEqual([
      [1, 'people/carol-demo'],
      [2, 'people/dan-trial'],
      [3, 'people/fay-check'],
    ]);
  });

  // Out-of-range numbers (`--max-pages 0`, `--min-confidence 2`, …) are usage errors: they are
  // checked in process by test/integration/cli/number-limits.test.ts.

  it.each([
    [['--max-pages', 'abc'], 'brainstream: --max-pages expects a number, got "abc"\n'],
    [['--min-confidence', 'high'], 'brainstream: --min-confidence expects a number, got "high"\n'],
    [['--window-turns', 'lots'], 'brainstream: --window-turns expects a number, got "lots"\n'],
    [['--session-id', ''], 'brainstream: --session-id expects a non-empty session id\n'],
  ])('a bad flag value is a usage error naming the flag, exit 2, before anything is read (%s)', async (args, message) => {
    expect(await watch(six, 'bad-usage', ...args)).toEqual({ code: 2, stdout: '', stderr: message });
  });

  it('--as remote never volunteers a private page', async () => {
    const line = 'user: open Board Prep please\n';
    expect(fired((await watch(line, 'bad-owner')).stdout)).toEqual([[1, 'notes/board-prep']]);
    const remote = await cli.run(['--as', 'remote', 'watch', '--json', '--session-id', 'bad-remote'], { input: `${line}and Fay Check\n` });
    expect(remote.code).toBe(0);
    expect(fired(remote.stdout)).toEqual([[2, 'people/fay-check']]);
  });
});

// The binary's own client forwarding to a serve process, whose log stays clean.
describe('watch on bad input, binary and serve as processes', () => {
  it('through a running serve: NUL bytes neither end the watch nor the serve', async () => {
    const serve = await startServe(home.path);
    try {
      const r = await runCliAsync(['--home', home.path, 'watch', '--json', '--session-id', 'bad-nul-serve'], {
        input: 'user: a\u0000b with Alice Example\nBob Sample here\n',
      });
      expect(r).toMatchObject({ code: 0, stderr: ready('bad-nul-serve') });
      expect(fired(r.stdout)).toEqual([
        [1, 'people/alice-example'],
        [2, 'people/bob-sample'],
      ]);
      const after = await runCliAsync(['--home', home.path, 'watch', '--json', '--session-id', 'bad-after-serve'], { input: 'Carol Demo\n' });
      expect(fired(after.stdout)).toEqual([[1, 'people/carol-demo']]);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    expect(serve.stderr()).not.toContain('"level"');
  });
});
