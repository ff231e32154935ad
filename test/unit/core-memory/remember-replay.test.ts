import { describe, expect, it } from 'vitest';
import { RememberParamsError } from '../../../src/core-memory/errors.js';
import { decideReplay, itemsFingerprint, rememberBatchResponse, replayKey } from '../../../src/core-memory/remember-replay.js';

const now = new Date('2026-04-07T12:00:00Z');

describe('request_id replay', () => {
  const items = [{ fact: 'a', provenance: 'p' }];
  const response = rememberBatchResponse([{ index: 0, id: '7', status: 'inserted' }], 'req');
  const stored = { fingerprint: itemsFingerprint(items), response, stored_at: '2026-04-01T12:00:00Z' };

  it('keys by bound source, identity and request_id', () => {
    expect(replayKey('default', 'owner', 'r1')).not.toBe(replayKey('default', 'cli-remote', 'r1'));
    expect(replayKey('default', 'owner', 'r1')).not.toBe(replayKey('work', 'owner', 'r1'));
    expect(replayKey('default', 'owner', 'r1')).toBe('["default","owner","r1"]');
    // Parts are quoted, so a separator inside one cannot make two requests collide.
    expect(replayKey('a","b', 'owner', 'r1')).not.toBe(replayKey('a', 'b","owner', 'r1'));
  });

  it('fingerprints ignore key order', () => {
    expect(itemsFingerprint([{ provenance: 'p', fact: 'a' }])).toBe(itemsFingerprint(items));
    expect(itemsFingerprint([{ fact: 'b', provenance: 'p' }])).not.toBe(itemsFingerprint(items));
  });

  it('same items → the stored response verbatim', () => {
    expect(decideReplay(stored, itemsFingerprint(items), now)).toEqual({ kind: 'replay', response });
  });

  it('different items → invalid_params', () => {
    expect(() => decideReplay(stored, itemsFingerprint([{ fact: 'b', provenance: 'p' }]), now)).toThrow(RememberParamsError);
    expect(() => decideReplay(stored, 'other', now)).toThrow(
      expect.objectContaining({ code: 'invalid_params', message: 'request_id reused with different items' }),
    );
  });

  it('no entry, or one older than 7 days → fresh', () => {
    expect(decideReplay(null, 'x', now)).toEqual({ kind: 'fresh' });
    expect(decideReplay({ ...stored, stored_at: '2026-03-31T11:59:59Z' }, 'other', now)).toEqual({ kind: 'fresh' });
    expect(decideReplay({ ...stored, stored_at: '2026-03-31T12:00:00Z' }, stored.fingerprint, now).kind).toBe('replay');
  });
});

describe('remember batch response', () => {
  it('partial is true iff some item failed', () => {
    expect(rememberBatchResponse([{ index: 0, status: 'inserted' }, { index: 1, status: 'duplicate' }], null)).toEqual({
      items: [{ index: 0, status: 'inserted' }, { index: 1, status: 'duplicate' }],
      partial: false,
      protocol_version: 1,
    });
    const r = rememberBatchResponse([{ index: 0, status: 'error', error: { code: 'core_budget_exceeded', message: 'm' } }], 'req');
    expect(r).toMatchObject({ partial: true, request_id: 'req' });
  });
});
