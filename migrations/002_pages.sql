-- The pages projection (built from page events) and every retrieval.
CREATE TABLE IF NOT EXISTS pages (
  source_id         TEXT NOT NULL,
  slug              TEXT NOT NULL,
  title             TEXT NOT NULL,
  type              TEXT NOT NULL,
  frontmatter       JSONB NOT NULL,
  compiled_truth    TEXT NOT NULL,
  timeline          TEXT NOT NULL,
  content_hash      TEXT NOT NULL,
  file_path         TEXT,
  version           INTEGER NOT NULL,
  deleted           BOOLEAN NOT NULL DEFAULT false,
  updated_at        TIMESTAMPTZ NOT NULL,
  last_retrieved_at TIMESTAMPTZ,
  PRIMARY KEY (source_id, slug)
);

CREATE TABLE IF NOT EXISTS page_retrievals (
  id           TEXT PRIMARY KEY,
  source_id    TEXT NOT NULL,
  slug         TEXT NOT NULL,
  session_id   TEXT,
  retrieved_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS page_retrievals_page ON page_retrievals (source_id, slug, retrieved_at);
CREATE INDEX IF NOT EXISTS page_retrievals_session ON page_retrievals (session_id, source_id, slug);
