import { SourceId } from '../domain/event-schemas.js';
import { MAX_SESSION_ID_CHARS } from '../domain/session-id.js';
import { inRange, rangeText, type NumberRange } from '../context/number-ranges.js';
import { UsageError } from '../errors.js';

/** Numeric flags must parse as finite numbers; knob rules (clamps) apply afterwards. */
export function parseNumberFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`${flag} expects a number, got ${JSON.stringify(value)}`);
  return n;
}

export function parseIntegerFlag(flag: string, value: string | undefined, maxAbs = 2 ** 31 - 1): number | undefined {
  const n = parseNumberFlag(flag, value);
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || Math.abs(n) > maxAbs) throw new UsageError(`${flag} expects an integer, got ${JSON.stringify(value)}`);
  return n;
}

/** A numeric flag with a range (domain/number-ranges): anything outside it is a usage error. */
export function parseRangedFlag(flag: string, value: string | undefined, range: NumberRange): number | undefined {
  const n = parseNumberFlag(flag, value);
  if (n === undefined) return undefined;
  if (!inRange(range, n)) throw new UsageError(`${flag} expects ${rangeText(range)}, got ${JSON.stringify(value)}`);
  return n;
}

/** `--source` flag → BRAINSTREAM_SOURCE → `default`; an invalid id is a usage error. */
export function resolveSource(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const raw = flag ?? (env.BRAINSTREAM_SOURCE || undefined) ?? 'default';
  const parsed = SourceId.safeParse(raw);
  if (!parsed.success) {
    const from = flag !== undefined ? '--source' : 'BRAINSTREAM_SOURCE';
    throw new UsageError(`${from} expects a source id (1–32 of a-z, 0-9, "-"), got ${JSON.stringify(raw)}`);
  }
  return parsed.data;
}

export function parseSourceList(flag: string, value: string): string[] {
  const ids = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const id of ids) {
    if (!SourceId.safeParse(id).success) throw new UsageError(`${flag} expects comma-separated source ids, got ${JSON.stringify(id)}`);
  }
  return ids;
}

/** Session ids are truncated to 256 characters (as every channel does); an empty one is a usage error. */
export function parseSessionFlag(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`${flag} expects a non-empty session id`);
  return value.slice(0, MAX_SESSION_ID_CHARS);
}
