-- The sweeper (closewise_core::sweep) deletes expired rows by their expiry; the device-request
-- cap counts the live pending requests. Index names are identical in the SQLite schema.

CREATE INDEX oauth_codes_expires_idx ON oauth_codes (expires_at);
CREATE INDEX email_tokens_expires_idx ON email_tokens (expires_at);
CREATE INDEX refresh_tokens_expires_idx ON refresh_tokens (expires_at);
CREATE INDEX sessions_revoked_idx ON sessions (revoked_at);
CREATE INDEX device_codes_status_expires_idx ON device_codes (status, expires_at);
