-- The outbox relay claims rows for a while (one statement), publishes them to Kafka outside any
-- transaction, then marks them published. A relay that dies after claiming leaves the claim to
-- expire; another relay (or the next start) publishes the rows again. Ids are deterministic, so
-- a second publication is harmless.
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS claimed_until TIMESTAMPTZ;
