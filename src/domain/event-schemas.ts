import { z } from 'zod';
import { MAX_SLUG_CHARS } from './slug-length.js';
import { MAX_SESSION_ID_CHARS } from './session-id.js';

/** Ids of sources: 1–32 of [a-z0-9-], no leading or trailing dash. */
export const SourceId = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/, 'source id must be 1–32 of [a-z0-9-] without leading/trailing "-"');

export const Channel = z.enum(['op', 'watch', 'reflex', 'claude-code', 'codex', 'opencode']);
export type Channel = z.infer<typeof Channel>;

/** `tool`: what a tool returned to the agent (a harness's post-tool hook), decided like any turn. */
export const Role = z.enum(['user', 'assistant', 'tool']);
export type Role = z.infer<typeof Role>;

/** Session ids as stored: 1–256 characters (longer ones are cut by `sessionIdOf`, never refused). */
export const SessionId = z.string().min(1).max(MAX_SESSION_ID_CHARS);
export type SessionId = z.infer<typeof SessionId>;
const Slug = z.string().min(1).max(MAX_SLUG_CHARS);
/** Pages a harness session already showed before its turns reached the log (at most this many are kept). */
export const MAX_SHOWN_SLUGS = 64;
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
  /**
   * Ungated pointers to the pages the turn itself names (a harness prompt: "pages mentioned this
   * turn"), at most this many, before the gated decision.
   */
  pointers: z.number().int().min(0).max(10).optional(),
  /**
   * Decided on the cold path (no serve, the log not open): on the turn itself and `shown` alone,
   * without the session's earlier turns, which the decision then could not see. A replay decides
   * it the same way, so it reproduces what was delivered.
   */
  fresh: z.boolean().optional(),
});
export type SessionSettings = z.infer<typeof SessionSettings>;

/**
 * turn.appended v2 — the current shape: the turn names the source it is scoped to and may carry
 * the knobs its session runs with, so a replay reproduces the live decisions exactly.
 */
export const TurnAppendedV2 = TurnAppendedV1.extend({
  source_id: SourceId,
  settings: SessionSettings.optional(),
  /** Where the turn came in (a harness hook); absent: the processor's own channel (`watch`). */
  channel: Channel.optional(),
  /** The tool a `tool` turn reports on (as the harness names it). */
  tool: z.string().min(1).max(128).optional(),
  /** Slugs the harness had already shown in this session (its own earlier injections): never pushed again. */
  shown: z.array(Slug).max(MAX_SHOWN_SLUGS).optional(),
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
  /**
   * SHA-256 of the file bytes the page was last imported from ('' if never imported); other
   * writes keep it, so an unchanged file is skipped on re-import and never undoes them.
   */
  content_hash: z.string(),
  file_path: z.string().nullable(),
  origin: PageOrigin,
  /** A remote write over a page with parts it could not see: which of them it kept. */
  kept_hidden: z.array(z.enum(['takes', 'private_facts', 'core_keys'])).optional(),
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

/**
 * page.volunteered v2 — also what the reader was shown (`display`, `synopsis`), so a consumer of
 * the volunteered stream (`consume volunteered`, an agent's adapter) can render the page as
 * `watch --json` does without the page index. Optional: producers that render nothing omit them;
 * v1 events upcast unchanged (both absent).
 */
export const PageVolunteeredV2 = PageVolunteeredV1.extend({
  display: z.string().optional(),
  synopsis: z.string().optional(),
});
export type PageVolunteered = z.infer<typeof PageVolunteeredV2>;

/**
 * volunteer.purged v1 — the retention purge's decision, in the log so a rebuild from sequence 0
 * drops the same volunteered events the live tables dropped (feedback-loop.md, "Purge").
 */
export const VolunteerPurgedV1 = z.object({
  /** Volunteered events with an event time before this instant are purged. */
  purged_before: z.iso.datetime({ offset: true }),
  ttl_days: z.number().int().positive(),
});
export type VolunteerPurged = z.infer<typeof VolunteerPurgedV1>;

export const CoreRevisionAckedV1 = z.object({
  source_id: SourceId,
  slug: Slug,
  /** The acknowledged version number (token `r<N>`); it and every earlier one are cleared. */
  version: z.number().int().positive(),
});
export type CoreRevisionAcked = z.infer<typeof CoreRevisionAckedV1>;

/**
 * core.remote_edit_noticed v1 — a remote write saved version `version` of a core page under
 * `memory.core.remote_edit = notify`: the owner sees a notice until it is acked. Recorded with
 * the page event, because the policy in force at write time decides, not the page event.
 */
export const CoreRemoteEditNoticedV1 = z.object({
  source_id: SourceId,
  slug: Slug,
  version: z.number().int().positive(),
});
export type CoreRemoteEditNoticed = z.infer<typeof CoreRemoteEditNoticedV1>;

export const FactKind = z.enum(['event', 'preference', 'commitment', 'belief', 'fact']);
export const FactVisibility = z.enum(['private', 'world']);

/**
 * fact.recorded v1 — a `remember`ed fact. `page_row` is its row number in the entity page's
 * facts fence (the page event carries the row itself); null when it lives in the fact store only.
 */
export const FactRecordedV1 = z.object({
  fact_id: z.number().int().positive(),
  source_id: SourceId,
  entity: Slug.nullable(),
  page_row: z.number().int().positive().nullable(),
  fact: z.string().min(1),
  kind: FactKind,
  visibility: FactVisibility,
  provenance: z.string().min(1),
  valid_from: z.string(),
  valid_until: z.string().nullable(),
  /** The fact this one replaces (struck as superseded), or null. */
  supersedes: z.number().int().positive().nullable(),
});
export type FactRecorded = z.infer<typeof FactRecordedV1>;

/** fact.forgotten v1 — `forget`: the fact is withdrawn (struck, valid until `valid_until`). */
export const FactForgottenV1 = z.object({
  fact_id: z.number().int().positive(),
  source_id: SourceId,
  reason: z.string(),
  valid_until: z.string(),
});
export type FactForgotten = z.infer<typeof FactForgottenV1>;

/**
 * remember.request_completed v1 — the response of a `remember` call with a `request_id`, so a
 * replay (same bound source, caller identity and request_id, within 7 days) returns it verbatim.
 */
export const RememberRequestCompletedV1 = z.object({
  source_id: SourceId,
  identity: z.string().min(1).max(256),
  request_id: z.string().min(1).max(256),
  /** SHA-256 of the items as sent (canonical JSON). */
  fingerprint: z.string(),
  /** The response as JSON text, so a replay returns it byte for byte (JSONB would reorder keys). */
  response: z.string(),
});
export type RememberRequestCompleted = z.infer<typeof RememberRequestCompletedV1>;

export const DeadLetterRecordedV1 = z.object({
  reason: z.string(),
  raw: z.string(),
  origin: z.string(),
  partition: z.number().int().nullable(),
  offset: z.string().nullable(),
  seq: z.number().int().nullable(),
});
export type DeadLetterRecorded = z.infer<typeof DeadLetterRecordedV1>;
