-- remember request replays: the response per (bound source, caller identity, request_id),
-- kept 7 days (older rows are dropped by the projection, by event time).
CREATE TABLE IF NOT EXISTS remember_requests (
  source_id   TEXT NOT NULL,
  identity    TEXT NOT NULL,
  request_id  TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  -- JSON text, not JSONB: a replay returns the response verbatim, key order included.
  response    TEXT NOT NULL,
  stored_at   TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (source_id, identity, request_id)
);
CREATE INDEX IF NOT EXISTS remember_requests_stored ON remember_requests (stored_at);
