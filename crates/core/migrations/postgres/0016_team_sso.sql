-- Single sign-on with OpenID Connect (issue 25, docs/teams.md "Single sign-on"): one connection
-- per team, its client secret sealed with MFA_ENCRYPTION_KEY (ChaCha20-Poly1305, the team's id as
-- associated data; never returned). The endpoints come from the issuer's discovery document, read
-- when the owner saves. required: password sign-in, reset and sign-up of the team's verified
-- domains answer 403 sso_required (the owner keeps the password as a break-glass way in).
-- sso_logins: a sign-in on its way through the provider (state stored hashed, nonce, PKCE
-- verifier, where to land), single use and short-lived, in the database so any replica finishes
-- the callback. sessions.sso_at: a session started by SSO (Require SSO ends the others).
-- Table and index names are identical in both schemas.

CREATE TABLE team_sso (
    team_id UUID PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
    issuer TEXT NOT NULL,
    client_id TEXT NOT NULL,
    client_secret_sealed TEXT NOT NULL,
    authorization_endpoint TEXT NOT NULL,
    token_endpoint TEXT NOT NULL,
    jwks_uri TEXT NOT NULL,
    required BOOLEAN NOT NULL DEFAULT FALSE,
    updated_by UUID REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE sso_logins (
    state_hash TEXT PRIMARY KEY,
    team_id UUID NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    nonce TEXT NOT NULL,
    pkce_verifier TEXT NOT NULL,
    next_path TEXT,
    test BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sso_logins_expires_idx ON sso_logins (expires_at);

ALTER TABLE sessions ADD COLUMN sso_at TIMESTAMPTZ;
