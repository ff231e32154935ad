-- The feedback log of push-based context: one row per delivered page.
CREATE TABLE IF NOT EXISTS context_volunteer_events (
  id             TEXT PRIMARY KEY,
  source_id      TEXT NOT NULL,
  slug           TEXT NOT NULL,
  confidence     DOUBLE PRECISION NOT NULL,
  match_arm      TEXT NOT NULL,
  rationale      TEXT NOT NULL DEFAULT '',
  channel        TEXT NOT NULL DEFAULT 'op',
  session_id     TEXT,
  turn           INTEGER,
  volunteered_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS cve_source_time ON context_volunteer_events (source_id, volunteered_at DESC);
CREATE INDEX IF NOT EXISTS cve_source_slug ON context_volunteer_events (source_id, slug);

-- Per-session state of the streaming volunteer processor (rolling window, surfaced slugs),
-- committed with its checkpoint so a restart resumes exactly where it stopped.
CREATE TABLE IF NOT EXISTS session_state (
  processor  TEXT NOT NULL,
  session_id TEXT NOT NULL,
  state      JSONB NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (processor, session_id)
);
