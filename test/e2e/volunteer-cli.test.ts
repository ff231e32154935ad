import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

const brain = tempDir('bs-vol-brain-');
const home = tempDir('bs-vol-home-');

function page(rel: string, content: string): void {
  const full = join(brain.path, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
}

let session: CliSession | undefined;
const cli = (args: string[], input: string | Buffer = '') => session!.run(args, { input });

beforeAll(async () => {
  page('people/alice-example.md', '---\ntitle: Alice Example\ntype: person\naliases: [Alice]\n---\n\n<!--- gbrain:facts:begin -->\n| # | claim | kind | confidence | visibility | notability | valid_from | valid_until | source | context |\n|---|---|---|---|---|---|---|---|---|---|\n| 1 | secret salary | fact | 1.0 | private | high | 2026-01-01 | | me | |\n<!--- gbrain:facts:end -->\n\nAlice Example is an early founder.\n');
  page('people/bob-sample.md', '---\ntitle: Bob Sample\ntype: person\n---\nBob Sample runs sales.\n');
  page('people/carol-demo.md', '---\ntitle: Carol Demo\ntype: person\n---\nCarol Demo is a designer.\n');
  page('people/dan-trial.md', '---\ntitle: Dan Trial\ntype: person\n---\nDan Trial is an engineer.\n');
  page('people/erin-probe.md', '---\ntitle: Erin Probe\ntype: person\n---\nErin Probe is a lawyer.\n');
  page('people/fay-check.md', '---\ntitle: Fay Check\ntype: person\n---\nFay Check is a recruiter.\n');
  page('notes/board-prep.md', '---\ntitle: Board Prep\nvisibility: private\n---\nPrivate board notes.\n');
  session = await openCliSession(home.path);
  expect((await cli(['import', brain.path])).code).toBe(0);
});

afterAll(async () => {
  await session?.close();
  brain.cleanup();
  home.cleanup();
});

const vc = (input: string | Buffer, ...args: string[]) => cli(['volunteer-context', ...args], input);
const six = 'user: Alice Example, Bob Sample, Carol Demo, Dan Trial, Erin Probe and Fay Check are coming.\n';

describe('volunteer-context', () => {
  it('prints the human rendering and the exact JSON shape', async () => {
    const human = await vc('user: what do you think about Alice Example?\n');
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(
      'Alice Example → people/alice-example (0.85, title) — exact title match "Alice Example"; mentioned in the newest turn\n    Alice Example is an early founder.\n',
    );
    const json = await vc('user: what do you think about Alice Example?\n', '--json');
    expect(json.stdout).toBe(
      '{"pages":[{"slug":"people/alice-example","source_id":"default","display":"Alice Example","confidence":0.85,"arm":"title","rationale":"exact title match \\"Alice Example\\"; mentioned in the newest turn","synopsis":"Alice Example is an early founder."}],"count":1,"window_turns":1}\n',
    );
  });

  it('exits 0 with the gate message when nothing is volunteered', async () => {
    const r = await vc('user: nothing to see here\n');
    expect(r).toMatchObject({ code: 0, stdout: 'Nothing volunteered (no entity cleared the confidence gate).\n' });
  });

  it.each([[''], ['\n\n   \n\t\n']])('refuses a blank window with exit 2 (%#)', async (input) => {
    const r = await vc(input);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('brainstream: window is required unless --stats\n');
  });

  it('survives 10 MB of input and a 100 KB single line', async () => {
    const big = `user: ${'lorem ipsum dolor '.repeat(600_000)}\nuser: and Bob Sample?\n`;
    const r = await vc(big, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).pages.map((p: { slug: string }) => p.slug)).toEqual(['people/bob-sample']);
    const line = await vc(`${'x'.repeat(100_000)} Alice Example`, '--json');
    expect(line.code).toBe(0);
    expect(JSON.parse(line.stdout).count).toBe(1);
  });

  it('takes invalid UTF-8, NUL bytes and unknown role prefixes as plain text', async () => {
    const bytes = Buffer.concat([Buffer.from('user: \u0000 caf'), Buffer.from([0xe9, 0xff]), Buffer.from(' with Bob Sample\n')]);
    const r = await vc(bytes, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).count).toBe(1);
    const sys = await vc('system: Carol Demo joined\n', '--json');
    expect(JSON.parse(sys.stdout)).toMatchObject({ count: 1, window_turns: 1, pages: [{ slug: 'people/carol-demo' }] });
  });

  it('applies in-range knobs as given (out-of-range ones are usage errors, below)', async () => {
    expect(JSON.parse((await vc(six, '--json')).stdout).count).toBe(3);
    expect(JSON.parse((await vc(six, '--json', '--max-pages', '5')).stdout).count).toBe(5);
    // At gate 0.9 a title hit (0.85) no longer passes.
    expect(JSON.parse((await vc(six, '--json', '--min-confidence', '0.9')).stdout).count).toBe(0);
  });

  it.each([
    [['--max-pages', 'abc'], 'brainstream: --max-pages expects a number, got "abc"'],
    [['--min-confidence', 'high'], 'brainstream: --min-confidence expects a number, got "high"'],
    [['--max-pages', '0'], 'brainstream: --max-pages expects a whole number from 1 to 5, got "0"'],
    [['--max-pages', '99'], 'brainstream: --max-pages expects a whole number from 1 to 5, got "99"'],
    [['--min-confidence', '2'], 'brainstream: --min-confidence expects a number from 0 to 1, got "2"'],
    [['--turn', '1.5'], 'brainstream: --turn expects an integer, got "1.5"'],
    [['--bogus'], "brainstream: unknown option '--bogus'"],
  ])('reports usage errors with exit 2 naming the flag (%s)', async (args, message) => {
    const r = await vc(six, ...args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(message);
  });

  it('never volunteers private pages to remote callers, and never leaks fences or conversation text', async () => {
    const owner = JSON.parse((await vc('user: open Board Prep please\n', '--json')).stdout);
    expect(owner.count).toBe(1);
    const remote = JSON.parse((await cli(['--as', 'remote', 'volunteer-context', '--json'], 'user: open Board Prep please\n')).stdout);
    expect(remote.count).toBe(0);
    const alice = JSON.parse((await vc('user: the secret salary of Alice Example is confidential gossip\n', '--json')).stdout);
    expect(alice.pages[0].synopsis).toBe('Alice Example is an early founder.');
    expect(alice.pages[0].rationale).not.toMatch(/salary|gossip|confidential/);
  });

  it('logs each volunteered page once per (session, turn) and reports it in --stats', async () => {
    expect((await vc('user: Dan Trial again\n', '--session-id', 'sess-1', '--turn', '7')).code).toBe(0);
    expect((await vc('user: Dan Trial again\n', '--session-id', 'sess-1', '--turn', '7')).code).toBe(0);
    // The retried delivery is stored once; without a turn each call is its own event.
    expect(await session!.query("SELECT slug, channel, turn FROM context_volunteer_events WHERE session_id = 'sess-1'")).toEqual([
      { slug: 'people/dan-trial', channel: 'op', turn: 7 },
    ]);
    await vc('user: Erin Probe again\n', '--session-id', 'sess-2');
    await vc('user: Erin Probe again\n', '--session-id', 'sess-2');
    expect(await session!.query("SELECT slug, turn FROM context_volunteer_events WHERE session_id = 'sess-2'")).toEqual([
      { slug: 'people/erin-probe', turn: null },
      { slug: 'people/erin-probe', turn: null },
    ]);
    const stats = JSON.parse((await cli(['volunteer-context', '--stats', '--json', '--attribution', 'session'])).stdout);
    expect(stats).toMatchObject({ attribution: 'session', approximate: false, days: 30 });
    expect(stats.total_volunteered).toBeGreaterThan(0);
    const dan = await cli(['page', 'get', 'people/dan-trial', '--session', 'sess-1']);
    expect(dan.code).toBe(0);
    const after = JSON.parse((await cli(['volunteer-context', '--stats', '--json', '--attribution', 'session'])).stdout);
    expect(after.total_used).toBe(1);
  });
});

const watch = (input: string, ...args: string[]) => cli(['watch', ...args], input);

describe('watch', () => {
  it('emits one JSON line per volunteered page, fires on first mention only, exits 0 at EOF', async () => {
    const r = await watch('ping Alice Example about the intro\nassistant: sure, Alice Example it is\nalso intro Alice Example to Bob Sample\n', '--json', '--max-pages', '1', '--session-id', 'w1');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[watch] session w1 ready');
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.turn, l.slug])).toEqual([
      [1, 'people/alice-example'],
      [3, 'people/bob-sample'],
    ]);
    expect(Object.keys(lines[0])).toEqual(['turn', 'slug', 'source_id', 'display', 'confidence', 'arm', 'rationale', 'synopsis', 'session_id']);
    expect(lines[0].session_id).toBe('w1');
  });

  it('prints nothing for silent turns and skips blank lines without counting them', async () => {
    const r = await watch('\n\n   \nhello there\n\nCarol Demo said hi\n', '--json', '--session-id', 'w2');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).turn)).toEqual([2]);
  });

  it('rejects bad numbers as usage errors', async () => {
    const r = await watch('x\n', '--window-turns', 'lots');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('brainstream: --window-turns expects a number, got "lots"');
  });

});

describe('watch without serve', () => {
  // Ctrl-C as the binary handles it when it runs the command itself, with no serve running.
  beforeAll(async () => {
    await session?.close();
    session = undefined;
  });

  it('exits 0 on Ctrl-C', async () => {
    const child = spawn(process.execPath, [CLI, '--home', home.path, 'watch', '--session-id', 'w3']);
    await new Promise<void>((ready) => child.stderr.on('data', (d: Buffer) => d.toString().includes('ready') && ready()));
    child.stdin.write('Fay Check is here\n');
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(0);
  });
});
