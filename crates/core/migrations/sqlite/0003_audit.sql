-- The operators' audit trail: every change made with the CLI, who made it and why.
-- No foreign key on user_id: the trail outlives a deleted account (target_email keeps it findable).
-- Constraint and index names are identical in the PostgreSQL schema.

CREATE TABLE audit_log (
    id BLOB PRIMARY KEY,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    user_id BLOB,
    target_email TEXT,
    reason TEXT,
    -- JSON text: what changed (before and after), identical on both databases.
    details TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
);
CREATE INDEX audit_log_user_idx ON audit_log (user_id);
CREATE INDEX audit_log_target_email_idx ON audit_log (target_email);
