-- The last remote write that kept parts of a page its caller could not see (takes, private facts,
-- core keys): {"at": ..., "kept": [...]}. Cleared by the next owner or import write; the owner
-- sees it in `page get` and `doctor`.
ALTER TABLE pages ADD COLUMN IF NOT EXISTS remote_write JSONB;
