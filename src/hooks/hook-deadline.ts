/**
 * `BRAINSTREAM_HOOK_DEADLINE_MS`: one self-deadline for every hook, for a slow machine (whose
 * user then raises the harness's own hook timeout to match). A whole number of milliseconds
 * from 100 to 600000; anything else is ignored and the usual deadlines apply.
 */
export function deadlineFromEnv(raw: string | undefined): number | null {
  const text = (raw ?? '').trim();
  if (!/^\d+$/.test(text)) return null;
  const ms = Number(text);
  return ms >= 100 && ms <= 600_000 ? ms : null;
}
