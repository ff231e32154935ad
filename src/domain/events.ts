import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import * as s from './event-schemas.js';
import { describeZodIssues } from './zod-issues.js';

/** The log's streams. Kafka topics are `<prefix><topic>`; the embedded log keeps a column. */
export const TOPICS = ['turns', 'pages', 'retrievals', 'volunteered', 'core', 'dlq'] as const;
export type Topic = (typeof TOPICS)[number];

/**
 * One entry per event type: its topic and its schema per version. Older versions are
 * upcast one step at a time to the newest at read time; stored events are never rewritten.
 */
const registry = {
  'turn.appended': {
    topic: 'turns',
    latest: s.TurnAppendedV2,
    versions: { 1: s.TurnAppendedV1, 2: s.TurnAppendedV2 },
    // v1 turns predate sources: they were all in the default source.
    upcast: { 1: (d: z.infer<typeof s.TurnAppendedV1>) => ({ ...d, source_id: 'default' }) },
  },
  'page.upserted': { topic: 'pages', latest: s.PageUpsertedV1, versions: { 1: s.PageUpsertedV1 }, upcast: {} },
  'page.deleted': { topic: 'pages', latest: s.PageDeletedV1, versions: { 1: s.PageDeletedV1 }, upcast: {} },
  'page.retrieved': { topic: 'retrievals', latest: s.PageRetrievedV1, versions: { 1: s.PageRetrievedV1 }, upcast: {} },
  'page.volunteered': {
    topic: 'volunteered',
    latest: s.PageVolunteeredV2,
    versions: { 1: s.PageVolunteeredV1, 2: s.PageVolunteeredV2 },
    // v2 only adds optional rendering fields: a v1 event is a v2 event without them.
    upcast: { 1: (d: z.infer<typeof s.PageVolunteeredV1>) => d },
  },
  'volunteer.purged': { topic: 'volunteered', latest: s.VolunteerPurgedV1, versions: { 1: s.VolunteerPurgedV1 }, upcast: {} },
  'core.revision_acked': { topic: 'core', latest: s.CoreRevisionAckedV1, versions: { 1: s.CoreRevisionAckedV1 }, upcast: {} },
  'core.remote_edit_noticed': { topic: 'core', latest: s.CoreRemoteEditNoticedV1, versions: { 1: s.CoreRemoteEditNoticedV1 }, upcast: {} },
  'fact.recorded': { topic: 'core', latest: s.FactRecordedV1, versions: { 1: s.FactRecordedV1 }, upcast: {} },
  'fact.forgotten': { topic: 'core', latest: s.FactForgottenV1, versions: { 1: s.FactForgottenV1 }, upcast: {} },
  'remember.request_completed': {
    topic: 'core',
    latest: s.RememberRequestCompletedV1,
    versions: { 1: s.RememberRequestCompletedV1 },
    upcast: {},
  },
  'dead_letter.recorded': { topic: 'dlq', latest: s.DeadLetterRecordedV1, versions: { 1: s.DeadLetterRecordedV1 }, upcast: {} },
} as const;

type Registry = typeof registry;
/** Every event type the log knows, in registry order. */
export const EVENT_TYPES = Object.keys(registry) as (keyof Registry)[];
export type EventType = keyof Registry;
export type EventData<T extends EventType> = z.infer<Registry[T]['latest']>;

const EnvelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  v: z.number().int().positive(),
  key: z.string(),
  /** Event time (ISO 8601). Replays use it, never the wall clock. */
  at: z.iso.datetime({ offset: true }),
  data: z.unknown(),
});

/** The envelope's fields come from its schema; `type` and `data` are narrowed per event type. */
export type Envelope<T extends EventType = EventType> = Omit<z.infer<typeof EnvelopeSchema>, 'type' | 'data'> & {
  type: T;
  data: EventData<T>;
};

/** Any event, narrowed by `type`. */
export type AnyEvent = { [T in EventType]: Envelope<T> }[EventType];

export function topicOf(type: EventType): Topic {
  return registry[type].topic as Topic;
}

export function latestVersion(type: EventType): number {
  return Math.max(...Object.keys(registry[type].versions).map(Number));
}

function isEventType(type: string): type is EventType {
  return Object.prototype.hasOwnProperty.call(registry, type);
}

export type DecodeResult = { ok: true; event: AnyEvent } | { ok: false; reason: string };

/**
 * Validates a stored or received event and upcasts it to the newest version.
 * Never throws: an unknown type or version, or a shape error, is a reason for the dead letters.
 */
export function decodeEvent(raw: unknown): DecodeResult {
  const env = EnvelopeSchema.safeParse(raw);
  if (!env.success) return { ok: false, reason: `invalid envelope: ${describeZodIssues(env.error)}` };
  const { type, v } = env.data;
  if (!isEventType(type)) return { ok: false, reason: `unknown event type "${type}"` };
  const entry = registry[type];
  const versions = entry.versions as Record<number, z.ZodType>;
  const schema = versions[v];
  if (!schema) return { ok: false, reason: `unknown version ${v} of event type "${type}"` };
  const parsed = schema.safeParse(env.data.data);
  if (!parsed.success) return { ok: false, reason: `invalid ${type} v${v}: ${describeZodIssues(parsed.error)}` };
  const latest = latestVersion(type);
  // Already the newest version: the parse above was the newest schema's own.
  if (v === latest) return { ok: true, event: { ...env.data, type, v, data: parsed.data } as AnyEvent };
  let data: unknown = parsed.data;
  const upcasters = entry.upcast as Record<number, (d: unknown) => unknown>;
  for (let from = v; from < latest; from++) {
    const step = upcasters[from];
    if (!step) return { ok: false, reason: `no upcaster from v${from} of "${type}"` };
    data = step(data);
  }
  const final = versions[latest]!.safeParse(data);
  if (!final.success) return { ok: false, reason: `upcast ${type} v${v}→v${latest} failed: ${describeZodIssues(final.error)}` };
  return { ok: true, event: { ...env.data, type, v: latest, data: final.data } as AnyEvent };
}

/** Builds a validated event of the newest version. Throws on a programming error (bad data). */
export function makeEvent<T extends EventType>(
  type: T,
  data: EventData<T>,
  options: { key: string; at?: string | Date; id?: string },
): Envelope<T> {
  const v = latestVersion(type);
  const schema = (registry[type].versions as Record<number, z.ZodType>)[v]!;
  const parsed = schema.parse(data) as EventData<T>;
  const at = options.at === undefined ? new Date().toISOString() : new Date(options.at).toISOString();
  return { id: options.id ?? randomUUID(), type, v, key: options.key, at, data: parsed };
}

/** A deterministic id from its parts, so a retried command or delivery is stored once. */
export function deterministicId(prefix: string, ...parts: (string | number | null)[]): string {
  const h = createHash('sha256').update(parts.map((p) => String(p)).join('\u0000')).digest('hex').slice(0, 32);
  return `${prefix}-${h}`;
}

export const pageKey = (sourceId: string, slug: string): string => `${sourceId}/${slug}`;
