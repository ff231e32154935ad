-- The purge watermark the context_volunteer_events projection has applied (volunteer.purged
-- events): a volunteered event older than it is never projected again, so a rebuild from
-- sequence 0 does not resurrect what the purge deleted.
CREATE TABLE IF NOT EXISTS volunteer_events_retention (
  singleton     BOOLEAN PRIMARY KEY DEFAULT true CHECK (singleton),
  purged_before TIMESTAMPTZ NOT NULL
);
