// The feedback log of the streaming channel, read back from a live home:
// what `watch` writes, the table's shape, a session resumed by a second process, and logging
// that fails without touching delivery, the exit code, or the privacy of the transcript.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../src/home.js';
import { deterministicId } from '../../src/domain/events.js';
import { runCli, tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';
import { writePages } from './serve-harness.js';

const brain = tempDir('bs-watch-log-brain-');
const homes: Array<{ cleanup(): void }> = [brain];

beforeAll(() => {
  const person = (title: string) => `---\ntitle: ${title}\ntype: person\n---\n${title} is someone we know.\n`;
  writePages(brain.path, {
    'people/alice-example': person('Alice Example'),
    'people/bob-sample': person('Bob Sample'),
    'people/carol-demo': person('Carol Demo'),
  });
});
afterAll(() => homes.forEach((h) => h.cleanup()));

function newHome(): string {
  const home = tempDir('bs-watch-log-home-');
  homes.push(home);
  return home.path;
}

/**
 * Runs `fn` on the embedded database of a home no process holds, as the last command left it
 * (each command projects what it appended before it exits); `q` returns the last statement's rows.
 */
async function withDatabase<T>(home: string, fn: (q: <R = Record<string, unknown>>(query: string) => Promise<R[]>) => Promise<T>): Promise<T> {
  const db = new PGlite(homePaths(home).database);
  try {
    return await fn(async <R>(query: string) => ((await db.exec(query)).at(-1)?.rows ?? []) as R[]);
  } finally {
    await db.close();
  }
}
const sql = <R = Record<string, unknown>>(home: string, query: string): Promise<R[]> => withDatabase(home, (q) => q<R>(query));

/** `watch` run by its own process, owning the brain (no serve). */
const watch = (home: string, input: string, ...args: string[]) => runCli(['--home', home, 'watch', '--json', ...args], { input });
const fired = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { turn: number; slug: string })
    .map((l) => [l.turn, l.slug]);
/** stderr without the ready line, as parsed log records. */
const logRecords = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('[watch] session'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; err?: Record<string, unknown> });

// `watch` as users run it by default: forwarded to the home's serve, which holds the brain.
describe('watch logging', () => {
  const home = newHome();
  let cli: CliSession | null = null;
  const served = (input: string, ...args: string[]) => cli!.run(['watch', '--json', ...args], { input });
  beforeAll(async () => {
    cli = await openCliSession(home);
    expect((await cli.run(['import', brain.path])).code).toBe(0);
  });
  afterAll(async () => {
    await cli?.close();
  });

  it('writes one row per volunteered page with channel watch, the session id and the turn number', async () => {
    const r = await served('hello there\nping Alice Example\nand Bob Sample\n', '--session-id', 'log-1');
    expect(r.code).toBe(0);
    const rows = await cli!.query("SELECT id, slug, channel, session_id, turn, match_arm, volunteered_at IS NOT NULL AS timed FROM context_volunteer_events WHERE session_id = 'log-1' ORDER BY turn");
    expect(rows).toEqual([
      { id: deterministicId('vol', 'watch', 'log-1', 2, 'default', 'people/alice-example'), slug: 'people/alice-example', channel: 'watch', session_id: 'log-1', turn: 2, match_arm: 'title', timed: true },
      { id: deterministicId('vol', 'watch', 'log-1', 3, 'default', 'people/bob-sample'), slug: 'people/bob-sample', channel: 'watch', session_id: 'log-1', turn: 3, match_arm: 'title', timed: true },
    ]);
  });

  it('the feedback table has exactly its documented columns, nullability, defaults, key and indexes', async () => {
    const columns = await cli!.query(
      `SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns
        WHERE table_name = 'context_volunteer_events' ORDER BY ordinal_position`,
    );
    const column = (name: string, type: string, nullable: 'YES' | 'NO', dflt: string | null = null) => ({ column_name: name, data_type: type, is_nullable: nullable, column_default: dflt });
    expect(columns).toEqual([
      column('id', 'text', 'NO'),
      column('source_id', 'text', 'NO'),
      column('slug', 'text', 'NO'),
      column('confidence', 'double precision', 'NO'),
      column('match_arm', 'text', 'NO'),
      column('rationale', 'text', 'NO', "''::text"),
      column('channel', 'text', 'NO', "'op'::text"),
      column('session_id', 'text', 'YES'),
      column('turn', 'integer', 'YES'),
      column('volunteered_at', 'timestamp with time zone', 'NO'),
    ]);
    const indexes = (await cli!.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'context_volunteer_events' ORDER BY indexdef")).map((r) =>
      r.indexdef.replace(/^.* USING btree /, ''),
    );
    expect(indexes.sort()).toEqual(['(id)', '(source_id, slug)', '(source_id, volunteered_at DESC)']);
    const [pk] = await cli!.query<{ def: string }>(
      "SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'context_volunteer_events'::regclass AND contype = 'p'",
    );
    expect(pk?.def).toBe('PRIMARY KEY (id)');
  });

  it('a second process with the same --session-id resumes the session: no page again, turn numbers go on, the new window applies', async () => {
    const first = await served('Alice Example here\nBob Sample too\n', '--session-id', 'again', '--window-turns', '4');
    expect(fired(first.stdout)).toEqual([
      [1, 'people/alice-example'],
      [2, 'people/bob-sample'],
    ]);
    // serve stops; the second watch is a process of its own that reloads the session from the database.
    await cli!.close();
    cli = null;
    const second = watch(home, 'Alice Example again\nBob Sample and Carol Demo\n', '--session-id', 'again', '--window-turns', '2');
    expect(second.code).toBe(0);
    expect(fired(second.stdout)).toEqual([[4, 'people/carol-demo']]);
    await withDatabase(home, async (q) => {
      const rows = await q("SELECT turn, slug FROM context_volunteer_events WHERE session_id = 'again' ORDER BY turn");
      expect(rows).toEqual([
        { turn: 1, slug: 'people/alice-example' },
        { turn: 2, slug: 'people/bob-sample' },
        { turn: 4, slug: 'people/carol-demo' },
      ]);
      const [state] = await q<{ state: { windowTurns: number; turnNumber: number; window: unknown[] } }>("SELECT state FROM session_state WHERE session_id = 'again'");
      expect(state!.state).toMatchObject({ windowTurns: 2, turnNumber: 4 });
      expect(state!.state.window).toHaveLength(2);
    });
  });
});

// A watch that owns the brain logs to its own stderr: these run it as a process without serve.
// Both cases share one home; each installs its failure and the first heals its own.
describe('watch with a failing feedback log', () => {
  const SECRET = 'Quetzalwhisper';
  const home = newHome();
  beforeAll(() => {
    expect(runCli(['--home', home, 'import', brain.path]).code).toBe(0);
  });

  it('a failing projection changes neither the output nor the exit code, and blocks no other command', async () => {
    await sql(
      home,
      `CREATE FUNCTION refuse_feedback() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'feedback store down'; END $$ LANGUAGE plpgsql;
       CREATE TRIGGER refuse_feedback BEFORE INSERT ON context_volunteer_events FOR EACH ROW EXECUTE FUNCTION refuse_feedback();`,
    );
    const r = watch(home, `${SECRET} says hi\nping Alice Example\nand Bob Sample\n`, '--session-id', 'broken');
    expect(r.code).toBe(0);
    expect(fired(r.stdout)).toEqual([
      [2, 'people/alice-example'],
      [3, 'people/bob-sample'],
    ]);
    // One concise warning: no stack, no transcript text.
    const records = logRecords(r.stderr);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 40, msg: expect.stringContaining('projection.context_volunteer_events failed'), err: { message: 'feedback store down' } });
    expect(r.stderr).not.toContain('stack');
    expect(r.stderr).not.toContain(SECRET);

    // The events wait unprojected; every other command still starts and works.
    const list = runCli(['--home', home, 'page', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('people/carol-demo');
    expect(runCli(['--home', home, 'page', 'put', 'people/dan-trial'], { input: '---\ntitle: Dan Trial\n---\nDan.\n' }).code).toBe(0);
    const once = runCli(['--home', home, 'volunteer-context', '--json'], { input: 'user: what about Carol Demo?\n' });
    expect(once.code).toBe(0);
    expect(JSON.parse(once.stdout).pages.map((p: { slug: string }) => p.slug)).toEqual(['people/carol-demo']);
    expect(once.stderr).not.toContain('stack');

    // Healed, the next command projects everything that waited.
    await sql(home, 'DROP TRIGGER refuse_feedback ON context_volunteer_events');
    expect(runCli(['--home', home, 'page', 'list']).code).toBe(0);
    const rows = await sql(home, 'SELECT channel, session_id, turn, slug FROM context_volunteer_events ORDER BY channel, slug');
    expect(rows).toEqual([
      { channel: 'op', session_id: null, turn: null, slug: 'people/carol-demo' },
      { channel: 'watch', session_id: 'broken', turn: 2, slug: 'people/alice-example' },
      { channel: 'watch', session_id: 'broken', turn: 3, slug: 'people/bob-sample' },
    ]);
  });

  it('when deciding itself fails, the turns are skipped with warnings that carry no transcript text', async () => {
    // The session state (which holds the rolling window's text) cannot be written: every decision fails.
    await sql(
      home,
      `CREATE FUNCTION refuse_state() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'state store down'; END $$ LANGUAGE plpgsql;
       CREATE TRIGGER refuse_state BEFORE INSERT OR UPDATE ON session_state FOR EACH ROW EXECUTE FUNCTION refuse_state();`,
    );
    const r = watch(home, `tell ${SECRET} about Alice Example\nand ${SECRET} again\n`, '--session-id', 'no-state');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const records = logRecords(r.stderr);
    expect(records.length).toBeGreaterThan(0);
    for (const rec of records) expect(rec).toMatchObject({ level: 40, err: { message: 'state store down' } });
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).not.toContain('stack');
    // The undecided turns wait in the log; they do not keep the next watch from starting.
    const next = watch(home, 'Bob Sample\n', '--session-id', 'no-state-2');
    expect(next).toMatchObject({ code: 0, stdout: '' });
    expect(next.stderr).not.toContain(SECRET);
  });
});
