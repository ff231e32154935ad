import { isForwardedEnvKey } from './forwarded-env.js';

/**
 * The fast hook client's request (a few lines of bash, so the harness does not pay for a Node
 * start on every prompt): `key=value` header lines up to a blank line, then the harness's JSON
 * up to a NUL byte. Header keys: `secret`, `event`, `harness`, `cwd`, and `env.<NAME>` for the caller's
 * brainstream settings and home folders (the same subset a forwarded command sees).
 */
export interface HookRequest {
  secret: string;
  event: string;
  harness: string;
  /** The caller's working directory ('' when not sent). */
  cwd: string;
  env: Record<string, string>;
  payload: string;
}

/** The request in `data`, null while it is incomplete; throws on a malformed header. */
export function parseHookRequest(data: Buffer): HookRequest | null {
  const end = data.indexOf(0);
  if (end < 0) return null;
  const text = data.subarray(0, end).toString('utf8');
  const split = text.indexOf('\n\n');
  if (split < 0) throw new Error('no blank line after the header');
  const req: HookRequest = { secret: '', event: '', harness: '', cwd: '', env: {}, payload: text.slice(split + 2) };
  for (const line of text.slice(0, split).split('\n')) {
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`header line without "=": ${JSON.stringify(line.slice(0, 40))}`);
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1);
    if (key === 'secret' || key === 'event' || key === 'harness' || key === 'cwd') req[key] = value;
    else if (key.startsWith('env.') && isForwardedEnvKey(key.slice(4))) req.env[key.slice(4)] = value;
    // Other keys are ignored: a newer client may send more.
  }
  return req;
}
