-- The usage-statistics projection: per UTC day × arm × channel × source, how many pages were
-- volunteered and how many were then used, under both attributions (approximate: retrieved by
-- anyone after the event; attributed: retrieved in the event's session after it).
CREATE TABLE IF NOT EXISTS usage_stats (
  day              DATE NOT NULL,
  match_arm        TEXT NOT NULL,
  channel          TEXT NOT NULL,
  source_id        TEXT NOT NULL,
  volunteered      INTEGER NOT NULL,
  used_approximate INTEGER NOT NULL,
  used_attributed  INTEGER NOT NULL,
  PRIMARY KEY (day, match_arm, channel, source_id)
);

-- The projection's own state, so its counts depend on nothing but the events it has applied
-- (never on how far another projection has got). One row per volunteered event still in
-- retention, with its current "used" flags.
CREATE TABLE IF NOT EXISTS usage_facts (
  id               TEXT PRIMARY KEY,
  source_id        TEXT NOT NULL,
  slug             TEXT NOT NULL,
  session_id       TEXT,
  volunteered_at   TIMESTAMPTZ NOT NULL,
  day              DATE NOT NULL,
  match_arm        TEXT NOT NULL,
  channel          TEXT NOT NULL,
  used_approximate BOOLEAN NOT NULL,
  used_attributed  BOOLEAN NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_facts_page ON usage_facts (source_id, slug);
CREATE INDEX IF NOT EXISTS usage_facts_time ON usage_facts (volunteered_at);

-- Per page: live or not, and the latest retrieval by event time (any session).
CREATE TABLE IF NOT EXISTS usage_page_marks (
  source_id         TEXT NOT NULL,
  slug              TEXT NOT NULL,
  live              BOOLEAN NOT NULL,
  last_retrieved_at TIMESTAMPTZ,
  PRIMARY KEY (source_id, slug)
);

-- Per page and session: the latest retrieval in that session.
CREATE TABLE IF NOT EXISTS usage_session_marks (
  source_id         TEXT NOT NULL,
  slug              TEXT NOT NULL,
  session_id        TEXT NOT NULL,
  last_retrieved_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (source_id, slug, session_id)
);
CREATE INDEX IF NOT EXISTS usage_session_marks_time ON usage_session_marks (last_retrieved_at);

-- The purge watermark this projection has applied (volunteer.purged events): facts before it
-- are frozen, then deleted.
CREATE TABLE IF NOT EXISTS usage_retention (
  singleton     BOOLEAN PRIMARY KEY DEFAULT true CHECK (singleton),
  purged_before TIMESTAMPTZ NOT NULL
);
