// Every event type of the log: a valid event of its newest version survives the trip through
// JSON and decodeEvent unchanged, lands on its topic, and data that breaks its schema is a
// dead-letter reason naming the type, version and field — never a throw.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeEvent, EVENT_TYPES, latestVersion, makeEvent, topicOf, type EventData, type EventType, type Topic } from '../../../src/domain/events.js';

const AT = '2026-03-04T05:06:07.000Z';

/** One valid payload per event type, and the field a broken copy gets wrong. */
const samples: { [T in EventType]: { topic: Topic; data: EventData<T>; broken: [field: string, value: unknown] } } = {
  'turn.appended': {
    topic: 'turns',
    data: { session_id: 's1', turn: 4, role: 'user', text: 'ask Alice Example', source_id: 'default', settings: { max_pages: 2, remote: true } },
    broken: ['role', 'system'],
  },
  'page.upserted': {
    topic: 'pages',
    data: {
      source_id: 'work', slug: 'people/alice-example', title: 'Alice Example', type: 'person',
      frontmatter: { aliases: ['Alice'], always_load: true }, compiled_truth: 'Alice runs the deal.', timeline: '- 2026-01-01 met',
      content_hash: 'ab12', file_path: 'people/Alice Example.md', origin: 'import',
    },
    broken: ['title', ''],
  },
  'page.deleted': { topic: 'pages', data: { source_id: 'default', slug: 'people/alice-example', origin: 'owner' }, broken: ['origin', 'robot'] },
  'page.retrieved': { topic: 'retrievals', data: { source_id: 'default', slug: 'companies/acme', session_id: null }, broken: ['session_id', ''] },
  'page.volunteered': {
    topic: 'volunteered',
    data: {
      source_id: 'default', slug: 'companies/acme', confidence: 0.85, match_arm: 'title', rationale: 'exact title match "Acme"',
      channel: 'claude-code', session_id: 's1', turn: 2, display: 'Acme', synopsis: 'Acme makes anvils.',
    },
    broken: ['confidence', 1.5],
  },
  'volunteer.purged': { topic: 'volunteered', data: { purged_before: AT, ttl_days: 90 }, broken: ['ttl_days', 0] },
  'core.revision_acked': { topic: 'core', data: { source_id: 'default', slug: 'prefs/habits', version: 3 }, broken: ['version', 0] },
  'core.remote_edit_noticed': { topic: 'core', data: { source_id: 'default', slug: 'prefs/habits', version: 4 }, broken: ['slug', ''] },
  'fact.recorded': {
    topic: 'core',
    data: {
      fact_id: 7, source_id: 'default', entity: 'people/alice-example', page_row: 2, fact: 'prefers mornings', kind: 'preference',
      visibility: 'world', provenance: 'mcp:test', valid_from: '2026-03-04', valid_until: null, supersedes: null,
    },
    broken: ['kind', 'rumour'],
  },
  'fact.forgotten': { topic: 'core', data: { fact_id: 7, source_id: 'default', reason: 'outdated', valid_until: '2026-03-05' }, broken: ['fact_id', -1] },
  'remember.request_completed': {
    topic: 'core',
    data: { source_id: 'default', identity: 'mcp:test', request_id: 'r-1', fingerprint: 'cd34', response: '{"results":[]}' },
    broken: ['request_id', ''],
  },
  'dead_letter.recorded': {
    topic: 'dlq',
    data: { reason: 'invalid envelope: at: Invalid ISO datetime', raw: '{"at":"yesterday"}', origin: 'turns', partition: 0, offset: '12', seq: null },
    broken: ['partition', 0.5],
  },
};

const cases = EVENT_TYPES.map((type) => ({ type, ...samples[type] }));

describe('every event type', () => {
  it('has a sample here (a new type gets one)', () => {
    expect(Object.keys(samples).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it.each(cases)('$type: newest version round-trips through JSON and decodeEvent unchanged', ({ type, data, topic }) => {
    const e = makeEvent(type, data as never, { key: 'k', at: AT });
    expect(e.v).toBe(latestVersion(type));
    expect(topicOf(type)).toBe(topic);
    expect(decodeEvent(JSON.parse(JSON.stringify(e)))).toEqual({ ok: true, event: e });
  });

  it.each(cases)('$type: data that breaks the schema is a dead-letter reason, not a throw', ({ type, data, broken: [field, value] }) => {
    const raw = { id: 'x', type, v: latestVersion(type), key: 'k', at: AT, data: { ...data, [field]: value } };
    const decoded = decodeEvent(raw);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toContain(`invalid ${type} v${latestVersion(type)}: ${field}:`);
    expect(() => makeEvent(type, { ...data, [field]: value } as never, { key: 'k' })).toThrow();
  });
});

describe('upcasting page.volunteered', () => {
  const fixture = (name: string): unknown =>
    JSON.parse(readFileSync(new URL(`../../fixtures/events/${name}`, import.meta.url), 'utf8'));

  it('reads a stored v1 event as v2 without the rendering fields, as the golden fixture says', () => {
    expect(latestVersion('page.volunteered')).toBe(2);
    expect(decodeEvent(fixture('page-volunteered-v1.json'))).toEqual({ ok: true, event: fixture('page-volunteered-v1.upcast.json') });
  });
});
