-- SCIM 2.0 provisioning (issue 25, docs/teams.md): a team's SCIM tokens and the users its identity
-- provider manages. A token is stored as its SHA-256 (hex) only; revoked tokens stay for the audit
-- trail. A SCIM user is an address at one of the team's verified domains: while active, the
-- account of that address is a member (or a pending invitation holds its seat when there is no
-- account yet); deactivated, the membership and every session of that person end, and the row
-- stays so the provider can read it back or reactivate it. resource: the attributes the provider
-- sent (name, emails, displayName...), as JSON. Table and index names are identical in both schemas.

CREATE TABLE scim_tokens (
    id BLOB PRIMARY KEY,
    team_id BLOB NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL CONSTRAINT scim_tokens_token_hash_key UNIQUE,
    created_by BLOB REFERENCES users (id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
);
CREATE INDEX scim_tokens_team_idx ON scim_tokens (team_id);

CREATE TABLE scim_users (
    id BLOB PRIMARY KEY,
    team_id BLOB NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_name TEXT NOT NULL,
    external_id TEXT,
    active BOOLEAN NOT NULL,
    resource TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CONSTRAINT scim_users_team_user_name_key UNIQUE (team_id, user_name)
);
CREATE INDEX scim_users_user_name_idx ON scim_users (user_name);
