-- Passkeys (WebAuthn, issue 24). A user's credentials: the id the authenticator chose (base64url,
-- unique across accounts), the COSE public key (base64url), the last sign counter. Challenges are stored so
-- every replica agrees on them: single use (used_at), 5 minutes, bound to a purpose
-- (register | sign_in | step_up) and, but for a discoverable sign-in, to a user.
-- Table and index names are identical in the SQLite schema.

CREATE TABLE passkeys (
    id UUID PRIMARY KEY,
    user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id TEXT NOT NULL CONSTRAINT passkeys_credential_id_key UNIQUE,
    name TEXT NOT NULL,
    public_key TEXT NOT NULL,
    sign_count BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    last_used_at TIMESTAMPTZ
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id);

CREATE TABLE webauthn_challenges (
    id UUID PRIMARY KEY,
    purpose TEXT NOT NULL,
    user_id UUID REFERENCES users (id) ON DELETE CASCADE,
    challenge TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ
);
CREATE INDEX webauthn_challenges_expires_idx ON webauthn_challenges (expires_at);
