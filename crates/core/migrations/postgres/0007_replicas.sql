-- Several API replicas on one PostgreSQL database (issue 16).
-- Constraint and index names are identical in the SQLite schema.

-- Rate-limit windows shared by every replica: one row per (bucket, key), spent by one upsert per
-- counted request, swept once ended. key_hash is the first 8 bytes of SHA-256(bucket, key): no
-- address or e-mail is stored. Times are Unix seconds on the app's clock. allowed: the outcome of
-- the request that wrote the row last (RETURNING sees only the new row). UNLOGGED: counters need
-- no crash safety, and skipping the WAL keeps the upsert cheap. SQLite keeps its counters in
-- memory (one process) and leaves its copy of this table empty.
CREATE UNLOGGED TABLE rate_limits (
    bucket TEXT NOT NULL,
    key_hash BIGINT NOT NULL,
    window_start BIGINT NOT NULL,
    window_end BIGINT NOT NULL,
    count INTEGER NOT NULL,
    not_before BIGINT NOT NULL,
    allowed BOOLEAN NOT NULL,
    PRIMARY KEY (bucket, key_hash)
);
CREATE INDEX rate_limits_window_end_idx ON rate_limits (window_end);

-- The replica (APP_INSTANCE, default the host name) or CLI host that wrote an audit row.
ALTER TABLE audit_log ADD COLUMN instance TEXT;
