-- The account a webhook event was about, once processing found it, so an operator can list an
-- account's recent events. No foreign key: events outlive a deleted account, like the audit log.
-- Index names are identical in the PostgreSQL schema.

ALTER TABLE webhook_events ADD COLUMN user_id BLOB;
CREATE INDEX webhook_events_user_idx ON webhook_events (user_id, received_at);
