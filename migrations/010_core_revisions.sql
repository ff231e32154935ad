-- Core memory: every saved version of a core page (what `core diff` compares), per
-- (source, slug, version). `core_page_heads` counts the saved versions of every page so the
-- projection numbers versions like `pages.version` does (the revision token r<N>) on its own.
CREATE TABLE IF NOT EXISTS core_page_heads (
  source_id TEXT NOT NULL,
  slug      TEXT NOT NULL,
  version   INTEGER NOT NULL,
  -- The latest version has always_load: true (and is not deleted).
  core      BOOLEAN NOT NULL,
  -- Log position of the last page event folded in: a re-delivered event is skipped.
  position  BIGINT NOT NULL,
  PRIMARY KEY (source_id, slug)
);

-- Versions that are core, plus the version that stopped being core.
CREATE TABLE IF NOT EXISTS core_revisions (
  source_id      TEXT NOT NULL,
  slug           TEXT NOT NULL,
  version        INTEGER NOT NULL,
  title          TEXT NOT NULL,
  frontmatter    JSONB NOT NULL,
  compiled_truth TEXT NOT NULL,
  origin         TEXT NOT NULL,
  saved_at       TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (source_id, slug, version)
);
