-- The learning gate's projection (retrieval.reflex.learning): what the log says about each page
-- in each session where it was volunteered or read, and the counters the decision reads.
-- Times are event times. Sessions first seen before the purge watermark are forgotten.
CREATE TABLE IF NOT EXISTS learning_sessions (
  source_id      TEXT NOT NULL,
  slug           TEXT NOT NULL,
  session_id     TEXT NOT NULL,
  first_seen_at  TIMESTAMPTZ NOT NULL,
  -- The first push of the page in the session, and the arm that made it (null: only read there).
  volunteered_at TIMESTAMPTZ,
  match_arm      TEXT,
  -- The latest read of the page in the session (null: never read there).
  last_read_at   TIMESTAMPTZ,
  PRIMARY KEY (source_id, slug, session_id)
);
CREATE INDEX IF NOT EXISTS learning_sessions_seen ON learning_sessions (first_seen_at);

-- Per page: the sessions it took part in and how many of them read it (habituation).
CREATE TABLE IF NOT EXISTS learning_pages (
  source_id TEXT NOT NULL,
  slug      TEXT NOT NULL,
  sessions  INTEGER NOT NULL,
  used      INTEGER NOT NULL,
  PRIMARY KEY (source_id, slug)
);

-- Per arm: sessions a page was volunteered in by it, and read there afterwards (calibration).
CREATE TABLE IF NOT EXISTS learning_arms (
  match_arm   TEXT PRIMARY KEY,
  volunteered INTEGER NOT NULL,
  used        INTEGER NOT NULL
);

-- The purge watermark this projection has applied (volunteer.purged events).
CREATE TABLE IF NOT EXISTS learning_retention (
  singleton     BOOLEAN PRIMARY KEY DEFAULT true CHECK (singleton),
  purged_before TIMESTAMPTZ NOT NULL
);
