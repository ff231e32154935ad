import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeEvent, deterministicId, latestVersion, makeEvent, topicOf } from '../../../src/domain/events.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/events/${name}`, import.meta.url), 'utf8'));

describe('event envelope and schemas', () => {
  it('builds events of the newest version with validated data', () => {
    const e = makeEvent('page.retrieved', { source_id: 'default', slug: 'people/alice', session_id: null }, { key: 'default/people/alice', at: '2026-01-02T03:04:05Z' });
    expect(e).toMatchObject({ type: 'page.retrieved', v: 1, key: 'default/people/alice', at: '2026-01-02T03:04:05.000Z' });
    expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(topicOf('page.retrieved')).toBe('retrievals');
  });

  it('refuses to build an event whose data breaks its schema', () => {
    expect(() => makeEvent('page.retrieved', { source_id: 'Bad Source', slug: 'x', session_id: null }, { key: 'k' })).toThrow(/source id/);
  });

  it('round-trips every current event through decodeEvent unchanged', () => {
    const e = makeEvent(
      'page.volunteered',
      { source_id: 'default', slug: 'people/alice', confidence: 0.9500000000000001, match_arm: 'alias', rationale: 'alias match "Alice"', channel: 'watch', session_id: 's', turn: 2 },
      { key: 's' },
    );
    const decoded = decodeEvent(JSON.parse(JSON.stringify(e)));
    expect(decoded).toEqual({ ok: true, event: e });
  });

  it('upcasts the made-up v1 turn to v2 exactly as the golden fixture says', () => {
    expect(latestVersion('turn.appended')).toBe(2);
    const decoded = decodeEvent(fixture('turn-appended-v1.json'));
    expect(decoded).toEqual({ ok: true, event: fixture('turn-appended-v1.upcast.json') });
  });

  it.each([
    [{ id: 'x', type: 'page.exploded', v: 1, key: 'k', at: '2026-01-01T00:00:00Z', data: {} }, 'unknown event type "page.exploded"'],
    [{ id: 'x', type: 'page.deleted', v: 7, key: 'k', at: '2026-01-01T00:00:00Z', data: {} }, 'unknown version 7 of event type "page.deleted"'],
    [{ id: 'x', type: 'page.deleted', v: 1, key: 'k', at: 'yesterday', data: {} }, 'invalid envelope: at:'],
    [{ id: 'x', type: 'page.deleted', v: 1, key: 'k', at: '2026-01-01T00:00:00Z', data: { slug: 'a' } }, 'invalid page.deleted v1: source_id:'],
    ['not an object', 'invalid envelope'],
  ])('gives a dead-letter reason instead of throwing (%#)', (raw, reason) => {
    const decoded = decodeEvent(raw);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toContain(reason);
  });

  it('derives the same id from the same parts, and different ids otherwise', () => {
    // Pinned: a replay or a retry must derive the id stored the first time, in any later version.
    expect(deterministicId('vol', 'watch', 's1', 3, 'default', 'a')).toBe('vol-330d4426b5fda8d62389998da17c168e');
    expect(deterministicId('vol', 'watch', 's1', 3, 'default', 'a')).not.toBe(deterministicId('vol', 'watch', 's1', 4, 'default', 'a'));
  });
});
