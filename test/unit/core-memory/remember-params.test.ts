import { describe, expect, it } from 'vitest';
import { RememberParamsError } from '../../../src/core-memory/errors.js';
import { validateRememberParams, type RememberPolicy } from '../../../src/core-memory/remember-params.js';

const now = new Date('2026-04-07T12:00:00Z');
const policy: RememberPolicy = { visibility: 'world', ttl: null };
const ok = { fact: 'Prefers tea', provenance: 'said so on 2026-04-07' };

function refusal(params: unknown, p: RememberPolicy = policy): RememberParamsError {
  try {
    validateRememberParams(params, p, now);
  } catch (error) {
    expect(error).toBeInstanceOf(RememberParamsError);
    return error as RememberParamsError;
  }
  throw new Error('expected a refusal');
}

describe('remember: single form', () => {
  it('fills defaults from the capture policy', () => {
    expect(validateRememberParams(ok, policy, now)).toEqual({
      form: 'single',
      request_id: null,
      item: { fact: 'Prefers tea', provenance: 'said so on 2026-04-07', entity: null, kind: 'fact', visibility: 'world', ttl: null, valid_until: null, supersedes: null },
    });
    const r = validateRememberParams(ok, { visibility: 'private', ttl: '30d' }, now);
    expect(r.form === 'single' && r.item).toMatchObject({ visibility: 'private', ttl: '30d', valid_until: '2026-05-07T12:00:00Z' });
  });

  it('reads every field', () => {
    const r = validateRememberParams({ ...ok, entity: 'People/Alice', kind: 'preference', visibility: 'private', ttl: '2026-05-01', supersedes: 12 }, policy, now);
    expect(r.form === 'single' && r.item).toMatchObject({ entity: 'people/alice', kind: 'preference', visibility: 'private', valid_until: '2026-05-01', supersedes: '12' });
  });

  it('requires provenance (provenance_required) and limits it to 500 chars', () => {
    expect(refusal({ fact: 'x' })).toMatchObject({ code: 'provenance_required', message: 'provenance is required' });
    expect(refusal({ fact: 'x', provenance: '   ' }).code).toBe('provenance_required');
    expect(refusal({ fact: 'x', provenance: 'p'.repeat(501) })).toMatchObject({ code: 'invalid_params', message: 'provenance must be at most 500 characters, got 501' });
  });

  it('refuses bad fields with invalid_params', () => {
    expect(refusal({ ...ok, fact: '' }).message).toBe('fact must be a non-empty string');
    expect(refusal({ ...ok, kind: 'rumour' }).message).toBe('kind must be one of event, preference, commitment, belief, fact, got "rumour"');
    expect(refusal({ ...ok, visibility: 'public' }).message).toBe('visibility must be private or world, got "public"');
    expect(refusal({ ...ok, entity: '../x' }).message).toContain('entity is not a valid slug');
    expect(refusal({ ...ok, supersedes: -1 }).message).toBe('supersedes must be a fact id');
    expect(refusal({ ...ok, ttl: 'P30D' }).message).toMatch(/^ttl "P30D" is an ISO 8601 duration/);
  });

  it('fact and items are mutually exclusive; one is required', () => {
    expect(refusal({ ...ok, items: [ok] }).message).toBe('fact and items are mutually exclusive');
    expect(refusal({}).message).toBe('fact or items is required');
    expect(refusal('text').code).toBe('invalid_params');
  });
});

describe('remember: items', () => {
  it('validates 1..20 items, each in order', () => {
    const r = validateRememberParams({ items: [ok, { ...ok, fact: 'Second', kind: 'event' }], request_id: 'req-1' }, policy, now);
    expect(r.form).toBe('items');
    if (r.form === 'items') {
      expect(r.items.map((i) => i.fact)).toEqual(['Prefers tea', 'Second']);
      expect(r.request_id).toBe('req-1');
    }
    expect(() => validateRememberParams({ items: Array(20).fill(ok) }, policy, now)).not.toThrow();
  });

  it('refuses 0 or more than 20 items', () => {
    expect(refusal({ items: [] })).toMatchObject({ code: 'invalid_params', message: 'items must hold 1..20 items, got 0' });
    expect(refusal({ items: Array(21).fill(ok) }).message).toBe('items must hold 1..20 items, got 21');
    expect(refusal({ items: 'x' }).message).toBe('items must be an array of 1..20 objects');
  });

  it('names the index of the first failing item', () => {
    const e = refusal({ items: [ok, { fact: 'no provenance' }, { ...ok, kind: 'bad' }] });
    expect(e.code).toBe('provenance_required');
    expect(e.message).toBe('items[1].provenance is required');
    expect(e.toEnvelope()).toEqual({ error: 'provenance_required', message: 'items[1].provenance is required', index: 1, field: 'provenance' });
  });

  it('uses invalid_params when another failure comes first', () => {
    const e = refusal({ items: [{ ...ok, kind: 'bad' }, { fact: 'no provenance' }] });
    expect(e).toMatchObject({ code: 'invalid_params', message: 'items[0].kind must be one of event, preference, commitment, belief, fact, got "bad"' });
    expect(refusal({ items: [ok, 42] }).message).toBe('items[1] must be an object');
    expect(refusal({ items: [{ provenance: 'p' }] }).message).toBe('items[0].fact must be a non-empty string');
  });

  it('validates request_id', () => {
    expect(refusal({ items: [ok], request_id: '' }).message).toMatch(/^request_id must be a non-empty string/);
  });
});

describe('remember: storage row', () => {
  it('maps an item to facts-fence row fields', async () => {
    const { rememberRowFields } = await import('../../../src/core-memory/remember-row.js');
    const r = validateRememberParams({ ...ok, kind: 'preference', ttl: '2026-05-01' }, policy, now);
    expect(r.form === 'single' && rememberRowFields(r.item, '2026-04-07')).toEqual({
      claim: 'Prefers tea',
      active: true,
      kind: 'preference',
      confidence: '1.0',
      visibility: 'world',
      notability: 'medium',
      valid_from: '2026-04-07',
      valid_until: '2026-05-01',
      source: 'said so on 2026-04-07',
      context: '',
    });
  });
});
