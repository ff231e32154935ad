import { z } from 'zod';
import { makeEvent, pageKey, type Envelope } from '../domain/events.js';
import { Role, SourceId } from '../domain/event-schemas.js';
import { sessionIdOf } from '../domain/session-id.js';
import { describeZodIssues } from '../domain/zod-issues.js';

const At = z.iso.datetime({ offset: true });
/** A line's session id: a longer one is cut to the stored length, as on every other channel. */
const LineSessionId = z.string().min(1).transform((id) => sessionIdOf(id)!);
const Int32 = z.number().int().min(-(2 ** 31) + 1).max(2 ** 31 - 1);

/** One line of `publish turns`. */
const TurnLine = z.object({
  session_id: LineSessionId,
  role: Role,
  text: z.string(),
  turn: Int32.optional(),
  at: At.optional(),
  source_id: SourceId.optional(),
});

/** One line of `publish retrievals`. */
const RetrievalLine = z.object({
  slug: z.string().min(1).max(512),
  source_id: SourceId.optional(),
  session_id: LineSessionId.nullable().optional(),
  at: At.optional(),
});

/** A line's events, or why the line is refused. */
export type LineResult = { ok: true; events: Envelope[] } | { ok: false; reason: string };

function parseJson(line: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch (err) {
    return { ok: false, reason: `not JSON: ${(err as Error).message}` };
  }
}

/**
 * Turns as `turn.appended` events keyed by session. A line without `turn` takes the session's
 * previous turn number + 1 (1 for its first line in this input); without `at`, the time it is read.
 */
export function turnLineParser(defaultSource: string): (line: string) => LineResult {
  const lastTurn = new Map<string, number>();
  return (line) => {
    const json = parseJson(line);
    if (!json.ok) return json;
    const parsed = TurnLine.safeParse(json.value);
    if (!parsed.success) return { ok: false, reason: describeZodIssues(parsed.error) };
    const t = parsed.data;
    const turn = t.turn ?? (lastTurn.get(t.session_id) ?? 0) + 1;
    lastTurn.set(t.session_id, turn);
    const source = t.source_id ?? defaultSource;
    const event = makeEvent('turn.appended', { session_id: t.session_id, turn, role: t.role, text: t.text, source_id: source }, {
      key: t.session_id,
      at: t.at,
    });
    return { ok: true, events: [event] };
  };
}

/** Retrievals as `page.retrieved` events keyed by `source/slug` (a page's reads stay in order). */
export function retrievalLineParser(defaultSource: string): (line: string) => LineResult {
  return (line) => {
    const json = parseJson(line);
    if (!json.ok) return json;
    const parsed = RetrievalLine.safeParse(json.value);
    if (!parsed.success) return { ok: false, reason: describeZodIssues(parsed.error) };
    const r = parsed.data;
    const source = r.source_id ?? defaultSource;
    const event = makeEvent('page.retrieved', { source_id: source, slug: r.slug, session_id: r.session_id ?? null }, {
      key: pageKey(source, r.slug),
      at: r.at,
    });
    return { ok: true, events: [event] };
  };
}
