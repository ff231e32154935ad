import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import { brainConfig } from '../config/brain-config.js';
import { findFact, type StoredFact } from '../../projections/facts-queries.js';
import { parseFactId } from '../core-memory/fact-id.js';
import { RememberParamsError } from '../core-memory/errors.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { validateRememberParams, type RememberItem, type RememberRequest } from '../core-memory/remember-params.js';
import { decideReplay, itemsFingerprint, rememberBatchResponse, type RememberBatchResponse, type RememberItemOutcome } from '../core-memory/remember-replay.js';
import { makeEvent } from '../domain/events.js';
import { BrainstreamError } from '../errors.js';
import { logger } from '../logger.js';
import { readRememberReplay } from '../../projections/remember-requests-queries.js';
import { rememberItem, type ItemOutcome } from './remember-item.js';
import { serialisePerRequest } from './remember-request-lock.js';

/** The single form's response. */
export interface RememberSingleResponse {
  id: string;
  status: 'inserted' | 'duplicate' | 'superseded';
  status_text: string;
  entity_slug: string | null;
  valid_until: string | null;
  protocol_version: 1;
}

export type RememberResponse = RememberSingleResponse | RememberBatchResponse;

/** The fact an item supersedes: it must exist in the caller's bound source and be visible to it. */
async function supersededFact(brain: Brain, caller: Caller, item: RememberItem, at: string): Promise<StoredFact | null> {
  if (item.supersedes === null) return null;
  const id = parseFactId(item.supersedes);
  const fact = id === null ? null : await findFact(brain.db, id);
  if (!fact || fact.source_id !== caller.source || (caller.kind === 'remote' && fact.visibility !== 'world')) {
    throw new RememberParamsError('invalid_params', `${at}supersedes: no fact ${item.supersedes} in source ${caller.source}; see brainstream facts list`, {
      field: 'supersedes',
    });
  }
  return fact;
}

function errorOutcome(err: unknown): ItemOutcome {
  if (err instanceof BrainstreamError) return { status: 'error', error: { code: err.code, message: err.message } };
  logger.error({ err }, 'remember item failed');
  return { status: 'error', error: { code: 'storage_failed', message: err instanceof Error ? err.message.split('\n')[0] : String(err) } };
}

/**
 * `remember`: the whole call is validated first (any invalid item, 0 or more
 * than 20 items → refused, nothing written); a replayed `request_id` returns its stored
 * response verbatim and writes nothing; otherwise each item is its own guarded write with its
 * own status, `partial` when some failed. Responses with a `request_id` are kept 7 days.
 */
export async function remember(brain: Brain, caller: Caller, params: unknown, options: { now?: Date } = {}): Promise<RememberResponse> {
  const now = options.now ?? new Date();
  const settings = memorySettings(brainConfig(brain));
  const request = validateRememberParams(params, { visibility: settings.captureVisibility, ttl: settings.captureTtl }, now);
  const sent = params as Record<string, unknown>;
  const fingerprint = itemsFingerprint(request.form === 'single' ? { ...sent, request_id: undefined } : sent.items);
  if (request.request_id === null) return saveItems(brain, caller, request, fingerprint, now);
  const requestId = request.request_id;
  // The replay check and the writes are one unit per request id: a concurrent call with the
  // same id waits for this one, then replays its stored response.
  return serialisePerRequest(brain, caller.source, caller.identity, requestId, async () => {
    const stored = await readRememberReplay<RememberResponse>(brain.db, caller.source, caller.identity, requestId);
    const decision = decideReplay(stored, fingerprint, now);
    if (decision.kind === 'replay') return decision.response;
    return saveItems(brain, caller, request, fingerprint, now);
  });
}

/** Saves validated items (each its own write) and, with a request_id, stores the response for replay. */
async function saveItems(brain: Brain, caller: Caller, request: RememberRequest, fingerprint: string, now: Date): Promise<RememberResponse> {
  const items = request.form === 'single' ? [request.item] : request.items;
  const supersedes: (StoredFact | null)[] = [];
  for (const [i, item] of items.entries()) supersedes.push(await supersededFact(brain, caller, item, request.form === 'items' ? `items[${i}].` : ''));

  let response: RememberResponse;
  if (request.form === 'single') {
    const outcome = await rememberItem(brain, caller, request.item, supersedes[0], now);
    response = {
      id: outcome.id!,
      status: outcome.status as RememberSingleResponse['status'],
      status_text: outcome.status_text ?? '',
      entity_slug: outcome.entity_slug ?? null,
      valid_until: outcome.valid_until ?? null,
      protocol_version: 1,
    };
  } else {
    const outcomes: RememberItemOutcome[] = [];
    for (const [index, item] of request.items.entries()) {
      let outcome: ItemOutcome;
      try {
        outcome = await rememberItem(brain, caller, item, supersedes[index], now);
      } catch (err) {
        outcome = errorOutcome(err);
      }
      outcomes.push({ index, ...outcome });
    }
    response = rememberBatchResponse(outcomes, request.request_id);
  }
  if (request.request_id !== null) {
    const data = { source_id: caller.source, identity: caller.identity, request_id: request.request_id, fingerprint, response: JSON.stringify(response) };
    await brain.commit([makeEvent('remember.request_completed', data, { key: `remember/${caller.source}/${request.request_id}`, at: now })]);
  }
  return response;
}
