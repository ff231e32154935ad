import { FACT_KINDS, FACT_VISIBILITIES, type FactKind, type FactVisibility } from '../pages/facts-table.js';
import { slugProblem } from '../pages/import-paths.js';
import { RememberParamsError } from './errors.js';
import { parseTtl } from './ttl.js';

export const MAX_REMEMBER_ITEMS = 20;
export const MAX_PROVENANCE_CHARS = 500;
export const MAX_REQUEST_ID_CHARS = 256;

export interface RememberItem {
  fact: string;
  provenance: string;
  /** Entity slug (lower-cased) in the caller's bound source, or null. */
  entity: string | null;
  kind: FactKind;
  visibility: FactVisibility;
  /** The ttl as given (or the policy's), null for none. */
  ttl: string | null;
  /** Resolved expiry: an ISO date or UTC date-time; null for none. */
  valid_until: string | null;
  /** Fact id this one replaces, or null. */
  supersedes: string | null;
}

/** The capture policy (`memory.capture` settings) fills in what an item omits. */
export interface RememberPolicy {
  visibility: FactVisibility;
  ttl: string | null;
}

export type RememberRequest =
  | { form: 'single'; item: RememberItem; request_id: string | null }
  | { form: 'items'; items: RememberItem[]; request_id: string | null };

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
const given = (obj: Record<string, unknown>, key: string): boolean => obj[key] !== undefined && obj[key] !== null;
const fail = (message: string, index?: number, field?: string): RememberParamsError =>
  new RememberParamsError('invalid_params', message, { ...(index === undefined ? {} : { index }), ...(field ? { field } : {}) });

/** Validates one item; `at` prefixes messages (`items[1].`) and is "" in the single form. */
function validateItem(raw: unknown, policy: RememberPolicy, now: Date, index?: number): RememberItem {
  const at = index === undefined ? '' : `items[${index}].`;
  if (!isObject(raw)) throw fail(`items[${index}] must be an object`, index);

  if (typeof raw.fact !== 'string' || raw.fact.trim() === '') throw fail(`${at}fact must be a non-empty string`, index, 'fact');
  if (!given(raw, 'provenance') || (typeof raw.provenance === 'string' && raw.provenance.trim() === '')) {
    throw new RememberParamsError('provenance_required', `${at}provenance is required`, {
      ...(index === undefined ? {} : { index }),
      field: 'provenance',
    });
  }
  if (typeof raw.provenance !== 'string') throw fail(`${at}provenance must be a string`, index, 'provenance');
  const provenance = raw.provenance.trim();
  if (provenance.length > MAX_PROVENANCE_CHARS) {
    throw fail(`${at}provenance must be at most ${MAX_PROVENANCE_CHARS} characters, got ${provenance.length}`, index, 'provenance');
  }

  let entity: string | null = null;
  if (given(raw, 'entity')) {
    if (typeof raw.entity !== 'string') throw fail(`${at}entity must be a page slug`, index, 'entity');
    entity = raw.entity.trim().toLowerCase();
    const problem = slugProblem(entity);
    if (problem !== null) throw fail(`${at}entity is not a valid slug: ${problem}`, index, 'entity');
  }

  const kind = given(raw, 'kind') ? raw.kind : 'fact';
  if (typeof kind !== 'string' || !(FACT_KINDS as readonly string[]).includes(kind)) {
    throw fail(`${at}kind must be one of ${FACT_KINDS.join(', ')}, got ${JSON.stringify(kind)}`, index, 'kind');
  }
  const visibility = given(raw, 'visibility') ? raw.visibility : policy.visibility;
  if (typeof visibility !== 'string' || !(FACT_VISIBILITIES as readonly string[]).includes(visibility)) {
    throw fail(`${at}visibility must be private or world, got ${JSON.stringify(visibility)}`, index, 'visibility');
  }

  const ttl = given(raw, 'ttl') ? raw.ttl : policy.ttl;
  let validUntil: string | null = null;
  if (ttl !== null) {
    if (typeof ttl !== 'string') throw fail(`${at}ttl must be a string such as 30d or 2026-05-01`, index, 'ttl');
    const parsed = parseTtl(ttl, now);
    if (!parsed.ok) throw fail(`${at}${parsed.message}`, index, 'ttl');
    validUntil = parsed.valid_until;
  }

  let supersedes: string | null = null;
  if (given(raw, 'supersedes')) {
    const s = raw.supersedes;
    if (typeof s === 'number' && Number.isInteger(s) && s > 0) supersedes = String(s);
    else if (typeof s === 'string' && s.trim() !== '') supersedes = s.trim();
    else throw fail(`${at}supersedes must be a fact id`, index, 'supersedes');
  }

  return {
    fact: raw.fact.trim(),
    provenance,
    entity,
    kind: kind as FactKind,
    visibility: visibility as FactVisibility,
    ttl: ttl as string | null,
    valid_until: validUntil,
    supersedes,
  };
}

function requestId(params: Record<string, unknown>): string | null {
  if (!given(params, 'request_id')) return null;
  const id = params.request_id;
  if (typeof id !== 'string' || id.trim() === '' || id.length > MAX_REQUEST_ID_CHARS) {
    throw fail(`request_id must be a non-empty string of at most ${MAX_REQUEST_ID_CHARS} characters`, undefined, 'request_id');
  }
  return id;
}

/**
 * Validates a whole `remember` call before anything is written: `fact` (single form)
 * xor `items` (1..20 objects). The first failure refuses the call: `provenance_required`
 * when it is a missing provenance, else `invalid_params`; messages name the item index.
 */
export function validateRememberParams(params: unknown, policy: RememberPolicy, now: Date): RememberRequest {
  if (!isObject(params)) throw fail('remember expects an object with fact or items');
  const hasFact = given(params, 'fact');
  const hasItems = given(params, 'items');
  if (hasFact && hasItems) throw fail('fact and items are mutually exclusive');
  if (!hasFact && !hasItems) throw fail('fact or items is required');
  const id = requestId(params);
  if (hasFact) return { form: 'single', item: validateItem(params, policy, now), request_id: id };

  const items = params.items;
  if (!Array.isArray(items)) throw fail(`items must be an array of 1..${MAX_REMEMBER_ITEMS} objects`, undefined, 'items');
  if (items.length === 0 || items.length > MAX_REMEMBER_ITEMS) {
    throw fail(`items must hold 1..${MAX_REMEMBER_ITEMS} items, got ${items.length}`, undefined, 'items');
  }
  return { form: 'items', items: items.map((item, i) => validateItem(item, policy, now, i)), request_id: id };
}
