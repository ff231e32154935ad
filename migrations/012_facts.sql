-- The fact store: every remembered fact (on its entity page's facts fence, or here only).
CREATE TABLE IF NOT EXISTS facts (
  id            BIGINT PRIMARY KEY,
  source_id     TEXT NOT NULL,
  entity        TEXT,
  -- Row number in the entity page's facts fence; null when the fact lives here only.
  page_row      INTEGER,
  fact          TEXT NOT NULL,
  -- normalizeAlias(fact): duplicates are active facts of the same source and entity with equal keys.
  normalized    TEXT NOT NULL,
  kind          TEXT NOT NULL,
  visibility    TEXT NOT NULL,
  provenance    TEXT NOT NULL,
  valid_from    TEXT NOT NULL,
  valid_until   TEXT,
  -- active | forgotten | superseded
  status        TEXT NOT NULL,
  reason        TEXT,
  superseded_by BIGINT,
  created_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS facts_duplicate ON facts (source_id, entity, normalized) WHERE status = 'active';
CREATE INDEX IF NOT EXISTS facts_source_created ON facts (source_id, created_at DESC);
