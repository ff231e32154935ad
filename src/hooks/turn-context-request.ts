import type { Turn } from '../context/turn.js';

export const MAX_REQUEST_LINE_BYTES = 256 * 1024;

export interface TurnContextPayload {
  kind: 'turn_context';
  window: Turn[];
  prior_context: string;
  session_id?: string;
  source_id?: string;
  channel: string;
  shown?: string[];
  tool?: string;
}

/** Room kept for the secret and framing the socket client adds to the line. */
const RESERVED_BYTES = 1024;
const lineBytes = (p: TurnContextPayload): number => Buffer.byteLength(JSON.stringify(p), 'utf8') + RESERVED_BYTES;

/**
 * Fits the request line in 256 KB: the prior context goes first, then the oldest turns; a
 * single remaining turn is cut (its start kept) as a last resort.
 */
export function fitTurnContextRequest(p: TurnContextPayload): TurnContextPayload {
  let out = { ...p, window: [...p.window] };
  if (lineBytes(out) <= MAX_REQUEST_LINE_BYTES) return out;
  out = { ...out, prior_context: '' };
  while (out.window.length > 1 && lineBytes(out) > MAX_REQUEST_LINE_BYTES) out.window.shift();
  while (out.window.length === 1 && lineBytes(out) > MAX_REQUEST_LINE_BYTES) {
    const t = out.window[0];
    const over = lineBytes(out) - MAX_REQUEST_LINE_BYTES;
    out.window = [{ role: t.role, text: t.text.slice(0, Math.max(0, t.text.length - Math.max(over, 1024))) }];
  }
  return out;
}
