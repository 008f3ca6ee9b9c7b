-- Passkeys (WebAuthn, issue 24). A user's credentials: the id the authenticator chose (base64url,
-- unique across accounts), the COSE public key (base64url), the last sign counter. Challenges are stored so
-- every replica agrees on them: single use (used_at), 5 minutes, bound to a purpose
-- (register | sign_in | step_up) and, but for a discoverable sign-in, to a user.
-- Table and index names are identical in the SQLite schema.

CREATE TABLE passkeys (
    id BLOB PRIMARY KEY,
    user_id BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id TEXT NOT NULL CONSTRAINT passkeys_credential_id_key UNIQUE,
    name TEXT NOT NULL,
    public_key TEXT NOT NULL,
    sign_count INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id);

CREATE TABLE webauthn_challenges (
    id BLOB PRIMARY KEY,
    purpose TEXT NOT NULL,
    user_id BLOB REFERENCES users (id) ON DELETE CASCADE,
    challenge TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
);
CREATE INDEX webauthn_challenges_expires_idx ON webauthn_challenges (expires_at);
