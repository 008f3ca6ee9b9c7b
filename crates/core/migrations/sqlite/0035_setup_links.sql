-- team_setup_links: the owner's setup link for IT (docs/teams.md "Setup link for IT"). The token
-- is stored as its SHA-256 hash only; `steps` lists what it allows (domain,sso,scim); `done` what
-- IT completed through it. `draft` is the single sign-on connection IT gave, not yet tested
-- (JSON; an OpenID client secret sealed as the saved connection seals it), and `test_*` the last
-- test sign-in's result. sso_logins.setup_link_id: a test sign-in of that link's draft.
-- scim_tokens.setup_link_id: a token made through a link. Names identical in both schemas.

CREATE TABLE team_setup_links (
    id BLOB PRIMARY KEY,
    team_id BLOB NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL CONSTRAINT team_setup_links_token_hash_key UNIQUE,
    steps TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT,
    finished_at TEXT,
    done TEXT NOT NULL DEFAULT '',
    draft TEXT,
    test_result TEXT,
    test_error TEXT,
    test_email TEXT,
    test_at TEXT
);
CREATE INDEX team_setup_links_team_idx ON team_setup_links (team_id, created_at);
CREATE INDEX team_setup_links_expires_idx ON team_setup_links (expires_at);

ALTER TABLE sso_logins ADD COLUMN setup_link_id BLOB REFERENCES team_setup_links (id) ON DELETE CASCADE;
ALTER TABLE scim_tokens ADD COLUMN setup_link_id BLOB REFERENCES team_setup_links (id) ON DELETE SET NULL;
