import { describe, expect, it } from 'vitest';
import { planPageWrite, type PageWritePlanner, type StoredRow } from '../../../src/core-memory/plan-page-write.js';
import { corePage, TODAY } from './fixtures.js';

const stored: StoredRow = {
  source_id: 'default',
  slug: 'prefs',
  title: 'Prefs',
  type: 'concept',
  frontmatter: { always_load: true, core_priority: 10 },
  compiled_truth: 'v1',
  timeline: '',
  version: 4,
  deleted: false,
  content_hash: 'h4',
  file_path: '/vault/prefs.md',
};
const planner = (over: Partial<PageWritePlanner> = {}): PageWritePlanner => ({
  caller: { kind: 'remote', grant: ['default'] },
  maxChars: 4000,
  remoteEdit: 'notify',
  today: TODAY,
  corePages: [corePage('prefs', 'v1', stored.frontmatter, { title: 'Prefs' })],
  ...over,
});
const next = (body: string, frontmatter: Record<string, unknown> = {}) => ({ title: 'Prefs', type: 'concept', frontmatter, compiled_truth: body, timeline: '' });

describe('planning a guarded page write', () => {
  it('a remote edit of a core page under notify: the page version and a notice naming r<N>, core keys merged back', () => {
    const plan = planPageWrite(planner(), { source_id: 'default', slug: 'prefs', stored, next: next('v2'), content_hash: 'h5' });
    expect(plan).toMatchObject({ changed: true, version: 5, remoteEdit: 'notify', page: { frontmatter: { always_load: true, core_priority: 10 } } });
    expect(plan.events.map((e) => [e.type, e.data])).toEqual([
      ['page.upserted', expect.objectContaining({ origin: 'remote', content_hash: 'h5', file_path: '/vault/prefs.md', compiled_truth: 'v2' })],
      ['core.remote_edit_noticed', { source_id: 'default', slug: 'prefs', version: 5 }],
    ]);
  });

  it('nothing to write when the saved row would equal the stored one', () => {
    expect(planPageWrite(planner(), { source_id: 'default', slug: 'prefs', stored, next: next('v1') })).toMatchObject({ changed: false, events: [], version: 4 });
  });

  it('owner writes: no notice; the planner follows the writes planned so far (a second write is measured after the first)', () => {
    const p = planner({ caller: { kind: 'owner', grant: null }, maxChars: 500 });
    planPageWrite(p, { source_id: 'default', slug: 'prefs', stored, next: next('x'.repeat(300), { always_load: true }) });
    expect(p.corePages.find((r) => r.slug === 'prefs')!.compiled_truth).toHaveLength(300);
    expect(() => planPageWrite(p, { source_id: 'default', slug: 'other', stored: null, next: next('y'.repeat(200), { always_load: true }) })).toThrow(
      expect.objectContaining({ code: 'core_budget_exceeded' }),
    );
  });

  it('keep_deleted: a soft-deleted row stays deleted (core remove on a deleted page)', () => {
    const plan = planPageWrite(planner({ caller: { kind: 'owner', grant: null } }), {
      source_id: 'default',
      slug: 'prefs',
      stored: { ...stored, deleted: true },
      next: next('v1'),
      keep_deleted: true,
    });
    expect(plan.events.map((e) => e.type)).toEqual(['page.upserted', 'page.deleted']);
  });
});
