-- A second factor (issue 24, closewise_core::mfa). Constraint and index names are identical in the
-- other database's schema.

-- The authenticator app: one row per account, pending until a code confirms it (confirmed_at).
-- secret: nonce || ChaCha20-Poly1305 ciphertext of the TOTP secret, base64, under
-- MFA_ENCRYPTION_KEY. last_step: the last TOTP time step accepted (a code must be later: replay).
CREATE TABLE mfa_totp (
    user_id UUID PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret TEXT NOT NULL,
    last_step BIGINT,
    created_at TIMESTAMPTZ NOT NULL,
    confirmed_at TIMESTAMPTZ
);

-- Recovery codes: SHA-256 of the normalised code; single use (used_at).
CREATE TABLE mfa_recovery_codes (
    id UUID PRIMARY KEY,
    user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ
);
CREATE INDEX mfa_recovery_codes_user_idx ON mfa_recovery_codes (user_id);

-- A password sign-in waiting for its second factor: SHA-256 of the opaque token, bound to the
-- account, the client kind (site or native) and the client's address; 5 minutes, single use
-- (used_at), void after 5 wrong codes (attempts).
CREATE TABLE mfa_tokens (
    id UUID PRIMARY KEY,
    user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL CONSTRAINT mfa_tokens_token_hash_key UNIQUE,
    client TEXT NOT NULL CONSTRAINT mfa_tokens_client_check CHECK (client IN ('site', 'native')),
    ip TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ
);
CREATE INDEX mfa_tokens_expires_idx ON mfa_tokens (expires_at);

-- When the second factor was last given on the session (a factor sign-in or a re-authentication
-- with a code): the step-up window of an account with a factor needs it as well as password_at.
ALTER TABLE sessions ADD COLUMN mfa_at TIMESTAMPTZ;

-- A team whose owner requires every member to have a second factor.
ALTER TABLE teams ADD COLUMN require_mfa BOOLEAN NOT NULL DEFAULT FALSE;
