-- The version of each projection's fold that its tables were built with. A release that
-- changes how a projection folds its events raises that projection's version; the next open of
-- the brain rebuilds it from the log (in shadow tables, swapped in), so old rows never mix with
-- rows of the new rule.
CREATE TABLE IF NOT EXISTS projection_versions (
  projection TEXT PRIMARY KEY,
  version    INTEGER NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
COMMENT ON TABLE projection_versions IS 'The fold version each projection''s tables were built with; a newer version in the code rebuilds the projection at the next open.';
