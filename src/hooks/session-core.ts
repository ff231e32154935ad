import type { CoreDelivery } from './core-delivery.js';
import { readCoreCache } from './core-cache.js';
import { callServe } from './serve-call.js';

const CORE_SERVE_TIMEOUT_MS = 600;

/** Resolves with null after `ms`; the work it races is abandoned (the hook process exits). */
const timeout = (ms: number): Promise<null> => new Promise((r) => setTimeout(() => r(null), Math.max(0, ms)).unref());

/**
 * The session block for `sourceId`: from serve (`core_block`), else the
 * cache file serve keeps current, else rendered here by opening the brain — only within the
 * time left. Null when none answered in time (the rest is printed without core).
 */
export async function coreForSession(home: string, sourceId: string, deadlineAt: number): Promise<CoreDelivery | null> {
  const left = (): number => deadlineAt - Date.now();
  const reply = await callServe(home, { kind: 'core_block', source_id: sourceId }, Math.max(1, Math.min(CORE_SERVE_TIMEOUT_MS, left())));
  if (reply.ok && typeof reply.body.text === 'string') {
    const notices = Array.isArray(reply.body.notices) ? reply.body.notices.filter((n): n is string => typeof n === 'string') : [];
    return { text: reply.body.text, revision: String(reply.body.revision ?? ''), notices, via: 'serve' };
  }
  const cached = readCoreCache(home, sourceId);
  if (cached) return cached;
  if (left() <= 0) return null;
  try {
    const { renderCoreDirect } = await import('./core-direct.js');
    return await Promise.race([renderCoreDirect(home, sourceId, new Date()), timeout(left())]);
  } catch {
    return null;
  }
}
