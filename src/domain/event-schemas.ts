import { z } from 'zod';

/** Ids of sources: 1–32 of [a-z0-9-], no leading or trailing dash. */
export const SourceId = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/, 'source id must be 1–32 of [a-z0-9-] without leading/trailing "-"');

export const Channel = z.enum(['op', 'watch', 'reflex', 'claude-code', 'codex', 'opencode']);
export type Channel = z.infer<typeof Channel>;

export const Role = z.enum(['user', 'assistant']);
export type Role = z.infer<typeof Role>;

const SessionId = z.string().min(1).max(256);
const Slug = z.string().min(1).max(512);
const Frontmatter = z.record(z.string(), z.unknown());

/** turn.appended v1 — the made-up first shape, kept so old logs still read (no source). */
export const TurnAppendedV1 = z.object({
  session_id: SessionId,
  turn: z.number().int(),
  role: Role,
  text: z.string(),
});

/** Per-session knobs a streaming client chose (`watch --max-pages …`); absent → configuration. */
export const SessionSettings = z.object({
  window_turns: z.number().optional(),
  min_confidence: z.number().optional(),
  max_pages: z.number().optional(),
  /** A remote caller's session (`watch --as remote`): private pages never resolve. */
  remote: z.boolean().optional(),
  /** An environment override of the lexical arms the session was started with. */
  lexical_arms: z.boolean().optional(),
});
export type SessionSettings = z.infer<typeof SessionSettings>;

/**
 * turn.appended v2 — the current shape: the turn names the source it is scoped to and may carry
 * the knobs its session runs with, so a replay reproduces the live decisions exactly.
 */
export const TurnAppendedV2 = TurnAppendedV1.extend({
  source_id: SourceId,
  settings: SessionSettings.optional(),
});
export type TurnAppended = z.infer<typeof TurnAppendedV2>;

export const PageOrigin = z.enum(['import', 'owner', 'remote']);
export type PageOrigin = z.infer<typeof PageOrigin>;

export const PageUpsertedV1 = z.object({
  source_id: SourceId,
  slug: Slug,
  title: z.string().min(1),
  type: z.string().min(1),
  frontmatter: Frontmatter,
  compiled_truth: z.string(),
  timeline: z.string(),
  /** SHA-256 of the markdown as given (file bytes for imports): unchanged input writes nothing. */
  content_hash: z.string(),
  file_path: z.string().nullable(),
  origin: PageOrigin,
});
export type PageUpserted = z.infer<typeof PageUpsertedV1>;

export const PageDeletedV1 = z.object({
  source_id: SourceId,
  slug: Slug,
  origin: PageOrigin,
});
export type PageDeleted = z.infer<typeof PageDeletedV1>;

export const PageRetrievedV1 = z.object({
  source_id: SourceId,
  slug: Slug,
  session_id: SessionId.nullable(),
});
export type PageRetrieved = z.infer<typeof PageRetrievedV1>;

export const MatchArm = z.enum(['alias', 'title', 'title-surname', 'cjk-title', 'slug-suffix']);
export type MatchArm = z.infer<typeof MatchArm>;

export const PageVolunteeredV1 = z.object({
  source_id: SourceId,
  slug: Slug,
  confidence: z.number().min(0).max(1),
  match_arm: MatchArm,
  rationale: z.string(),
  channel: Channel,
  session_id: SessionId.nullable(),
  turn: z.number().int().nullable(),
});
export type PageVolunteered = z.infer<typeof PageVolunteeredV1>;

export const CoreRevisionAckedV1 = z.object({
  source_id: SourceId,
  slug: Slug,
  /** The acknowledged version number (token `r<N>`); it and every earlier one are cleared. */
  version: z.number().int().positive(),
});
export type CoreRevisionAcked = z.infer<typeof CoreRevisionAckedV1>;

export const DeadLetterRecordedV1 = z.object({
  reason: z.string(),
  raw: z.string(),
  origin: z.string(),
  partition: z.number().int().nullable(),
  offset: z.string().nullable(),
  seq: z.number().int().nullable(),
});
export type DeadLetterRecorded = z.infer<typeof DeadLetterRecordedV1>;
