import { ERRORS, PROTOCOL_VERSION } from '../serve-client/protocol.js';

export type DecodedRequest = { ok: true; request: Record<string, unknown> } | { ok: false; error: string; message: string };

/**
 * A request line of the serve socket: a JSON object, authenticated by its secret before anything
 * else is looked at, then of this protocol version. Pure: whatever the line holds, it is an
 * answer, never a throw.
 */
export function decodeRequestLine(line: string, secretMatches: (presented: unknown) => boolean): DecodedRequest {
  let request: Record<string, unknown>;
  try {
    const parsed = JSON.parse(line) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    request = parsed as Record<string, unknown>;
  } catch {
    return { ok: false, error: ERRORS.invalidRequest, message: 'the request line is not a JSON object' };
  }
  if (!secretMatches(request.secret)) return { ok: false, error: ERRORS.unauthorized, message: 'wrong or missing secret' };
  if (request.v !== PROTOCOL_VERSION) return { ok: false, error: ERRORS.unsupportedVersion, message: `protocol version ${PROTOCOL_VERSION} expected` };
  return { ok: true, request };
}
