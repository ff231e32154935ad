export interface ContextUsage {
  used_tokens: number;
  last_turn_tokens: number;
}

const tokens = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0);

/** Context tokens of one assistant entry's usage: input + cache creation + cache read. */
function usageReading(entry: unknown): number | null {
  if (entry === null || typeof entry !== 'object') return null;
  const e = entry as { type?: unknown; message?: { role?: unknown; usage?: unknown } };
  const isAssistant = e.type === 'assistant' || e.message?.role === 'assistant';
  const usage = e.message?.usage;
  if (!isAssistant || usage === null || typeof usage !== 'object') return null;
  const u = usage as Record<string, unknown>;
  return tokens(u.input_tokens) + tokens(u.cache_creation_input_tokens) + tokens(u.cache_read_input_tokens);
}

/**
 * Usage derived from transcript entries (parsed JSONL, oldest first) when the harness sent
 * none: `used` = the last assistant reading, `last_turn` = its growth over the previous
 * reading (0 with a single reading, or when the context shrank). Null without a reading.
 */
export function usageFromTranscript(entries: readonly unknown[]): ContextUsage | null {
  const readings = entries.map(usageReading).filter((r): r is number => r !== null);
  if (readings.length === 0) return null;
  const used = readings[readings.length - 1];
  const previous = readings.length > 1 ? readings[readings.length - 2] : used;
  return { used_tokens: used, last_turn_tokens: Math.max(0, used - previous) };
}
