-- The append-only log of the embedded mode, consumer checkpoints, dead letters and the outbox.
CREATE TABLE IF NOT EXISTS events (
  seq         BIGSERIAL PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  topic       TEXT NOT NULL,
  type        TEXT NOT NULL,
  v           INTEGER NOT NULL,
  key         TEXT NOT NULL,
  at          TIMESTAMPTZ NOT NULL,
  data        JSONB NOT NULL,
  appended_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS events_topic_seq ON events (topic, seq);

-- One row per consumer; written in the same transaction as the consumer's projection rows.
CREATE TABLE IF NOT EXISTS checkpoints (
  consumer   TEXT PRIMARY KEY,
  position   BIGINT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Kafka consumers store offsets here, in the same transaction as their projection rows.
CREATE TABLE IF NOT EXISTS kafka_offsets (
  group_id    TEXT NOT NULL,
  topic       TEXT NOT NULL,
  partition   INTEGER NOT NULL,
  next_offset BIGINT NOT NULL,
  updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, topic, partition)
);

CREATE TABLE IF NOT EXISTS dead_letters (
  id          BIGSERIAL PRIMARY KEY,
  origin      TEXT NOT NULL,
  partition   INTEGER,
  "offset"    TEXT,
  seq         BIGINT,
  reason      TEXT NOT NULL,
  raw         TEXT NOT NULL,
  recorded_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- One row per bad entry, however many consumers meet it.
CREATE UNIQUE INDEX IF NOT EXISTS dead_letters_position
  ON dead_letters (origin, (COALESCE(partition, -1)), (COALESCE("offset", '')), (COALESCE(seq, -1)));

-- Events produced by a consumer are staged here in its transaction, then relayed.
CREATE TABLE IF NOT EXISTS outbox (
  id           BIGSERIAL PRIMARY KEY,
  topic        TEXT NOT NULL,
  key          TEXT NOT NULL,
  payload      JSONB NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  published_at TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS outbox_unpublished ON outbox (id) WHERE published_at IS NULL;
