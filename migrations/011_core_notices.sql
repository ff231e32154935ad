-- Core memory: remote edits of core pages saved under remote_edit = notify, and how far the
-- owner has acknowledged each page. Pending = remote revisions above acked_through.
CREATE TABLE IF NOT EXISTS core_remote_revisions (
  source_id TEXT NOT NULL,
  slug      TEXT NOT NULL,
  version   INTEGER NOT NULL,
  edited_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (source_id, slug, version)
);

CREATE TABLE IF NOT EXISTS core_revision_acks (
  source_id     TEXT NOT NULL,
  slug          TEXT NOT NULL,
  acked_through INTEGER NOT NULL,
  acked_at      TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (source_id, slug)
);
