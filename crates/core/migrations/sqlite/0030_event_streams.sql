-- Event streams (docs/api.md, "Event streams"): a team's destinations for its audit events and
-- webhook events, the outbox of what each is owed, and the log of delivery attempts.
--
-- event_streams: kind https | splunk_hec | datadog; token: the Splunk or Datadog token, secret and
-- previous_secret: the https stream's signing secrets, all sealed with the server's key (the
-- stream's id as associated data); previous_secret_until_ms: when the rotated-out secret stops
-- signing. events: the subscribed event types, as a JSON array. last_seq: the sequence number of
-- the stream's newest outbox row (bumped in the transaction that writes it, so a stream's rows are
-- numbered in commit order). Delivery state: failures in a row, failing_since_ms, the next
-- attempt, paused_at (failing for 3 days), and the lease a worker holds while it delivers
-- (lease_owner until lease_until_ms): times the worker compares are integers (Unix ms) on both
-- databases.
--
-- stream_outbox: one row per event per stream, in seq order; delivered_at once a request carrying
-- it was answered 2xx. event_id is stable across retries and replays (receivers de-duplicate by
-- it). stream_deliveries: one row per request (or refusal to send), newest read first.
-- Table and index names are identical in both schemas.

CREATE TABLE event_streams (
    id BLOB PRIMARY KEY,
    team_id BLOB NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    url TEXT NOT NULL,
    token TEXT,
    secret TEXT,
    previous_secret TEXT,
    previous_secret_until_ms BIGINT,
    events TEXT NOT NULL,
    created_by BLOB REFERENCES users (id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    last_seq BIGINT NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    failing_since_ms BIGINT,
    next_attempt_ms BIGINT NOT NULL DEFAULT 0,
    paused_at TEXT,
    lease_owner TEXT,
    lease_until_ms BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX event_streams_team_idx ON event_streams (team_id);

CREATE TABLE stream_outbox (
    stream_id BLOB NOT NULL REFERENCES event_streams (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    delivered_at TEXT,
    PRIMARY KEY (stream_id, seq)
);
CREATE INDEX stream_outbox_pending_idx ON stream_outbox (stream_id, seq) WHERE delivered_at IS NULL;

CREATE TABLE stream_deliveries (
    id BLOB PRIMARY KEY,
    stream_id BLOB NOT NULL REFERENCES event_streams (id) ON DELETE CASCADE,
    attempted_at TEXT NOT NULL,
    events INTEGER NOT NULL,
    first_seq BIGINT NOT NULL,
    last_seq BIGINT NOT NULL,
    status TEXT NOT NULL,
    response_code INTEGER,
    latency_ms BIGINT NOT NULL,
    error TEXT,
    next_retry_at TEXT
);
CREATE INDEX stream_deliveries_stream_idx ON stream_deliveries (stream_id, attempted_at);
