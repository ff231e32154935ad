import { describe, expect, it } from 'vitest';
import { checkRemoteCoreKeys, suggestedPriority } from '../../../src/core-memory/owner-rules.js';
import { planPageWrite, type PageWritePlanner, type StoredRow } from '../../../src/core-memory/plan-page-write.js';
import { corePage, refusal, TODAY } from './fixtures.js';

const OWNER_ONLY = 'only the brain owner can change core membership or priority';

const check = (stored: Record<string, unknown> | null, input: Record<string, unknown>) =>
  checkRemoteCoreKeys({ source_id: 'default', slug: 'prefs/habits', stored, input });

describe('the --priority a core add suggestion names', () => {
  it('names none when the write asked for no priority, whatever is stored', () => {
    expect(suggestedPriority({ always_load: true }, { core_priority: 100 })).toEqual({ note: '' });
    expect(suggestedPriority({ always_load: true }, { core_priority: 2.5 })).toEqual({ note: '' });
  });

  it('names a whole-number request as is, and a non-number request as the 100 it counts as', () => {
    expect(suggestedPriority({ core_priority: 20 }, {})).toEqual({ priority: 20, note: '' });
    expect(suggestedPriority({ core_priority: -5 }, { core_priority: 10 })).toEqual({ priority: -5, note: '' });
    expect(suggestedPriority({ core_priority: 'top' }, { core_priority: 10 })).toEqual({ priority: 100, note: '' });
  });

  it('turns a fractional request into the whole number next to it in the direction of the change, and says so', () => {
    expect(suggestedPriority({ core_priority: 2.5 }, {})).toEqual({ priority: 2, note: ' (--priority takes a whole number within ±2147483647, so core_priority 2.5 becomes 2)' });
    expect(suggestedPriority({ core_priority: 2.5 }, { core_priority: 1 })).toMatchObject({ priority: 3 });
    expect(suggestedPriority({ core_priority: -0.5 }, { core_priority: 10 })).toMatchObject({ priority: -1 });
  });

  it('names no flag for a fractional request equal to the stored priority (core add keeps it)', () => {
    expect(suggestedPriority({ core_priority: 2.5 }, { core_priority: 2.5 })).toEqual({ note: '' });
  });

  it('keeps a request beyond what --priority accepts inside its range', () => {
    expect(suggestedPriority({ core_priority: 1e12 }, {})).toMatchObject({ priority: 2147483647 });
    expect(suggestedPriority({ core_priority: -1e12 }, {})).toMatchObject({ priority: -2147483647 });
  });
});

describe('refusal messages name a command the CLI accepts', () => {
  it('a fractional core_priority on a core page: core add with the whole number, and why', () => {
    const e = refusal(() => check({ always_load: true, core_priority: 10 }, { core_priority: 2.5 }));
    expect(e.message).toBe(
      `${OWNER_ONLY}. Ask the user to run: brainstream core add --source default prefs/habits --priority 2 (--priority takes a whole number within ±2147483647, so core_priority 2.5 becomes 2)`,
    );
    expect(e.details.command).toBe('brainstream core add --source default prefs/habits --priority 2');
  });

  it('making a page core with a fractional priority on a new page', () => {
    expect(refusal(() => check(null, { always_load: true, core_priority: 7.25 })).details.command).toBe('brainstream core add --source default prefs/habits --priority 7');
  });

  it('making a page core without a priority names no --priority, though one is stored', () => {
    const e = refusal(() => check({ core_priority: 100 }, { always_load: true }));
    expect(e.message).toBe(`${OWNER_ONLY}. Ask the user to run: brainstream core add --source default prefs/habits`);
  });
});

const deletedCore: StoredRow = {
  source_id: 'default',
  slug: 'notes/gone',
  title: 'Gone',
  type: 'note',
  frontmatter: { always_load: true, core_priority: 10 },
  compiled_truth: 'old text',
  timeline: '',
  version: 2,
  deleted: true,
  content_hash: 'h2',
  file_path: null,
};
const planner = (over: Partial<PageWritePlanner> = {}): PageWritePlanner => ({
  caller: { kind: 'remote', grant: ['default'] },
  maxChars: 4000,
  remoteEdit: 'notify',
  today: TODAY,
  corePages: [corePage('notes/gone', 'old text', deletedCore.frontmatter, { title: 'Gone', deleted: true })],
  ...over,
});
const next = (frontmatter: Record<string, unknown>, body = 'old text') => ({ title: 'Gone', type: 'note', frontmatter, compiled_truth: body, timeline: '' });
const request = (frontmatter: Record<string, unknown>, extra: { keep_deleted?: boolean; body?: string } = {}) => ({
  source_id: 'default',
  slug: 'notes/gone',
  stored: deletedCore,
  next: next(frontmatter, extra.body),
  ...(extra.keep_deleted ? { keep_deleted: true } : {}),
});

describe('a soft-deleted row keeps the owner’s always_load', () => {
  it('a remote write clearing it (core remove on a deleted page) is refused, naming core remove', () => {
    const e = refusal(() => planPageWrite(planner(), request({ always_load: false }, { keep_deleted: true })));
    expect(e.message).toBe(`${OWNER_ONLY}. Ask the user to run: brainstream core remove --source default notes/gone`);
  });

  it('a remote re-creation that omits the keys keeps them: the page comes back core, as a noticed remote edit', () => {
    const plan = planPageWrite(planner(), request({}, { body: 'new text' }));
    expect(plan).toMatchObject({ changed: true, version: 3, remoteEdit: 'notify', page: { frontmatter: { always_load: true, core_priority: 10 } } });
    expect(plan.events.map((e) => e.type)).toEqual(['page.upserted', 'core.remote_edit_noticed']);
  });

  it('re-creating it unchanged still revives it (a write), and under refuse a remote caller cannot revive it at all', () => {
    expect(planPageWrite(planner({ remoteEdit: 'allow' }), request({})).changed).toBe(true);
    expect(() => planPageWrite(planner({ remoteEdit: 'refuse' }), request({}, { body: 'new text' }))).toThrow(expect.objectContaining({ code: 'core_remote_edit_refused' }));
  });

  it('the budget still counts the deleted row as absent: reviving it is growth', () => {
    expect(() => planPageWrite(planner({ maxChars: 500 }), request({}, { body: 'x'.repeat(600) }))).toThrow(expect.objectContaining({ code: 'core_budget_exceeded' }));
  });

  it('owner writes are unaffected: core remove keeps the row deleted, a re-creation is whatever the owner wrote', () => {
    const owner = { caller: { kind: 'owner' as const, grant: null } };
    expect(planPageWrite(planner(owner), request({}, { keep_deleted: true })).events.map((e) => e.type)).toEqual(['page.upserted', 'page.deleted']);
    const recreated = planPageWrite(planner(owner), request({ title: 'x' }));
    expect(recreated).toMatchObject({ remoteEdit: 'exempt', page: { frontmatter: { title: 'x' } } });
  });
});
