import { describe, expect, it } from 'vitest';
import { remoteCaller } from '../../../src/caller.js';
import { factsList } from '../../../src/ops/facts-list.js';
import { forget } from '../../../src/ops/forget.js';
import { findPage } from '../../../projections/pages-queries.js';
import { putPage } from '../../../src/ops/page-ops.js';
import { remember } from '../../../src/ops/remember.js';
import { storageDrivers } from '../../support/databases.js';
import { coreBrain, md, owner, putCore, remote, TODAY } from './core-brain.js';

const drivers = await storageDrivers();
const item = (fact: string, extra: Record<string, unknown> = {}) => ({ fact, provenance: 'chat 2026-04-07', ...extra });
const count = async (b: { brain: { db: { query: (s: string) => Promise<{ n: number | string }[]> } } }): Promise<number> =>
  Number((await b.brain.db.query('SELECT count(*) AS n FROM events'))[0].n);

describe.each(drivers)('remember and forget on $name', ({ open }) => {
  it('refuses 0 or 21 items, or one invalid item among valid ones, before anything is written', async () => {
    const b = await coreBrain(await open());
    const before = await count(b as never);
    const refusal = (p: unknown) => remember(b.brain, owner, p).then(() => null, (e: { code: string; message: string }) => `${e.code}: ${e.message}`);
    expect(await refusal({ items: [] })).toBe('invalid_params: items must hold 1..20 items, got 0');
    expect(await refusal({ items: Array.from({ length: 21 }, (_, i) => item(`f${i}`)) })).toBe('invalid_params: items must hold 1..20 items, got 21');
    expect(await refusal({ items: [item('ok'), { fact: 'no provenance' }, item('x', { kind: 'rumour' })] })).toBe('provenance_required: items[1].provenance is required');
    expect(await refusal({ items: [item('ok'), item('x', { kind: 'rumour' })] })).toBe(
      'invalid_params: items[1].kind must be one of event, preference, commitment, belief, fact, got "rumour"',
    );
    expect(await refusal({ items: [item('ok'), item('x', { ttl: 'P30D' })] })).toMatch(/^invalid_params: items\[1\]\.ttl "P30D" is an ISO 8601 duration/);
    expect(await refusal({ fact: 'a', provenance: 'p', items: [item('b')] })).toBe('invalid_params: fact and items are mutually exclusive');
    expect(await refusal({ items: [item('a', { supersedes: 999 })] })).toMatch(/^invalid_params: items\[0\]\.supersedes: no fact 999/);
    expect(await refusal({ items: [item('a')], request_id: 'r' }).then(() => count(b as never))).toBe(before + 2); // this one was valid
    b.cleanup();
  });

  it('each item is its own write with its own status; partial when some failed; entity pages get facts-fence rows', async () => {
    const b = await coreBrain(await open(), { 'memory.core.max_chars': 500 });
    await putCore(b.brain, 'prefs', 'Prefs.');
    await putPage(b.brain, owner, 'people/alice', md('title: Alice', 'Alice.'));
    const r = await remember(
      b.brain,
      owner,
      {
        items: [
          item('Alice likes tea', { entity: 'people/alice', kind: 'preference', ttl: '30d' }),
          item('Standup at nine'),
          item('standup at NINE'),
          item('x'.repeat(600), { entity: 'prefs' }), // would render in core: over budget
          item('secret detail '.repeat(50), { entity: 'prefs', visibility: 'private' }), // never renders: passes
        ],
      },
      { now: TODAY },
    );
    expect(r).toEqual({
      items: [
        { index: 0, id: '1', status: 'inserted', status_text: 'saved on people/alice as row #1', entity_slug: 'people/alice', valid_until: '2026-05-07T12:00:00Z' },
        { index: 1, id: '2', status: 'inserted', status_text: 'saved in the fact store', valid_until: null },
        { index: 2, id: '2', status: 'duplicate', status_text: 'already remembered as #2', valid_until: null },
        { index: 3, status: 'error', error: { code: 'core_budget_exceeded', message: expect.stringMatching(/^core would be \d+ chars/) } },
        { index: 4, id: '3', status: 'inserted', status_text: 'saved on prefs as row #1', entity_slug: 'prefs', valid_until: null },
      ],
      partial: true,
      protocol_version: 1,
    });
    expect((await findPage(b.brain.db, 'default', 'people/alice'))!.compiled_truth).toBe(
      [
        'Alice.',
        '',
        '## Facts',
        '',
        '<!--- gbrain:facts:begin -->',
        '| # | claim | kind | confidence | visibility | notability | valid_from | valid_until | source | context |',
        '|---|---|---|---|---|---|---|---|---|---|',
        '| 1 | Alice likes tea | preference | 1.0 | world | medium | 2026-04-07 | 2026-05-07T12:00:00Z | chat 2026-04-07 |  |',
        '<!--- gbrain:facts:end -->',
      ].join('\n'),
    );
    b.cleanup();
  });

  it('the capture policy fills in visibility and ttl; supersedes strikes the old row with "superseded by #<row>"', async () => {
    const b = await coreBrain(await open(), { 'memory.capture.visibility': 'private', 'memory.capture.ttl': '7d' });
    await putPage(b.brain, owner, 'people/bob', md('title: Bob', 'Bob.'));
    const first = (await remember(b.brain, owner, item('Bob lives in Leeds', { entity: 'people/bob' }), { now: TODAY })) as { id: string; valid_until: string };
    expect(first.valid_until).toBe('2026-04-14T12:00:00Z');
    const second = await remember(b.brain, owner, item('Bob lives in York', { entity: 'people/bob', supersedes: first.id, visibility: 'world' }), { now: TODAY });
    expect(second).toEqual({ id: '2', status: 'superseded', status_text: 'superseded #1; saved on people/bob as row #2', entity_slug: 'people/bob', valid_until: '2026-04-14T12:00:00Z', protocol_version: 1 });
    const page = (await findPage(b.brain.db, 'default', 'people/bob'))!.compiled_truth;
    expect(page).toContain('| 1 | ~~Bob lives in Leeds~~ | fact | 1.0 | private | medium | 2026-04-07 | 2026-04-14T12:00:00Z | chat 2026-04-07 | superseded by #2 |');
    expect((await factsList(b.brain, owner, { source: null, entity: null, includeForgotten: true })).facts.map((f) => [f.id, f.forgotten])).toEqual([
      ['2', false],
      ['1', true],
    ]);
    b.cleanup();
  });

  it('request_id: a replay returns the stored response verbatim and writes nothing; other items → invalid_params; kept 7 days', async () => {
    const b = await coreBrain(await open());
    const params = { items: [item('One'), item('Two')], request_id: 'req-1' };
    const first = await remember(b.brain, owner, params, { now: TODAY });
    const written = await count(b as never);
    expect(await remember(b.brain, owner, { items: [item('One'), item('Two')], request_id: 'req-1' }, { now: TODAY })).toStrictEqual(first);
    expect(JSON.stringify(await remember(b.brain, owner, params, { now: TODAY }))).toBe(JSON.stringify(first));
    expect(await count(b as never)).toBe(written);
    await expect(remember(b.brain, owner, { items: [item('Three')], request_id: 'req-1' }, { now: TODAY })).rejects.toMatchObject({
      code: 'invalid_params',
      message: 'request_id reused with different items',
    });
    // Keyed by bound source and caller identity: another caller with the same id is a fresh call.
    const other = await remember(b.brain, remoteCaller('default', undefined, 'mcp-client-7'), params, { now: TODAY });
    expect(other).toMatchObject({ items: [{ status: 'duplicate' }, { status: 'duplicate' }] });
    // After 7 days the id no longer replays.
    const later = new Date(TODAY.getTime() + 8 * 86_400_000);
    const again = await remember(b.brain, owner, { items: [item('Three')], request_id: 'req-1' }, { now: later });
    expect(again).toMatchObject({ items: [{ status: 'inserted' }], request_id: 'req-1' });
    b.cleanup();
  });

  it('forget strikes the row, sets valid_until and the reason; unknown ids are fact_not_found; remote callers see world facts only', async () => {
    const b = await coreBrain(await open());
    await putPage(b.brain, owner, 'people/carol', md('title: Carol', 'Carol.'));
    await remember(b.brain, owner, item('Carol codes in Go', { entity: 'people/carol' }), { now: TODAY });
    await remember(b.brain, owner, item('Carol is private', { visibility: 'private' }), { now: TODAY });
    expect(await forget(b.brain, owner, '1', undefined, { now: TODAY })).toEqual({
      id: '1',
      status: 'forgotten',
      status_text: 'forgotten: user request (struck on people/carol, row #1)',
      entity_slug: 'people/carol',
      valid_until: '2026-04-07',
      protocol_version: 1,
    });
    expect((await findPage(b.brain.db, 'default', 'people/carol'))!.compiled_truth).toContain(
      '| 1 | ~~Carol codes in Go~~ | fact | 1.0 | world | medium | 2026-04-07 | 2026-04-07 | chat 2026-04-07 | forgotten: user request |',
    );
    expect((await forget(b.brain, owner, '#1')).status).toBe('unchanged');
    await expect(forget(b.brain, owner, '99')).rejects.toMatchObject({ code: 'fact_not_found' });
    await expect(forget(b.brain, remote, '2')).rejects.toMatchObject({ code: 'fact_not_found' }); // private: invisible remotely
    expect((await factsList(b.brain, remote, { source: null, entity: null, includeForgotten: true })).facts.map((f) => f.id)).toEqual(['1']);
    expect((await factsList(b.brain, owner, { source: null, entity: null, includeForgotten: false })).facts.map((f) => f.id)).toEqual(['2']);
    b.cleanup();
  });
});
