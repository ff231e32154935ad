/**
 * The part of a client's environment a forwarded command sees instead of serve's own: the
 * brainstream settings and the user's home folders. Everything else is serve's.
 */
export const isForwardedEnvKey = (key: string): boolean => key.startsWith('BRAINSTREAM_') || key === 'HOME' || key === 'CODEX_HOME';

export function forwardedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && isForwardedEnvKey(k)) out[k] = v;
  return out;
}
