import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { RememberParamsError } from './errors.js';

const REPLAY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Replays are keyed by (bound source, caller identity, request_id). */
export const replayKey = (boundSource: string, identity: string, requestId: string): string =>
  canonicalJson([boundSource, identity, requestId]);

/** Fingerprint of the items as sent (key order does not matter). */
export const itemsFingerprint = (items: unknown): string => createHash('sha256').update(canonicalJson(items)).digest('hex');

export interface StoredReplay<R> {
  fingerprint: string;
  response: R;
  /** ISO time the response was stored. */
  stored_at: string;
}

export type ReplayDecision<R> = { kind: 'fresh' } | { kind: 'replay'; response: R };

/**
 * Same request_id with the same items → the stored response verbatim (nothing written);
 * with different items → `invalid_params`. Entries older than 7 days no longer count.
 */
export function decideReplay<R>(stored: StoredReplay<R> | null, fingerprint: string, now: Date): ReplayDecision<R> {
  if (stored === null) return { kind: 'fresh' };
  const age = now.getTime() - Date.parse(stored.stored_at);
  if (!(age <= REPLAY_RETENTION_MS)) return { kind: 'fresh' };
  if (stored.fingerprint !== fingerprint) {
    throw new RememberParamsError('invalid_params', 'request_id reused with different items', { field: 'request_id' });
  }
  return { kind: 'replay', response: stored.response };
}

export interface RememberItemOutcome {
  index: number;
  id?: string;
  status: 'inserted' | 'duplicate' | 'superseded' | 'error';
  status_text?: string;
  entity_slug?: string;
  valid_until?: string | null;
  error?: { code: string; message: string };
}

export interface RememberBatchResponse {
  items: RememberItemOutcome[];
  partial: boolean;
  request_id?: string;
  protocol_version: 1;
}

/** The batch response; `partial` is true iff some item failed. */
export function rememberBatchResponse(items: RememberItemOutcome[], requestId: string | null): RememberBatchResponse {
  return {
    items,
    partial: items.some((i) => i.status === 'error'),
    ...(requestId === null ? {} : { request_id: requestId }),
    protocol_version: 1,
  };
}
