-- Verified company domains (issue 25, docs/teams.md): a team claims a domain, publishes a DNS TXT
-- record `_closewise-challenge.<domain>` with `closewise-domain-verification=<txt_token>`, and the
-- domain is verified once the record is seen. A domain is verified by one team at a time (the
-- partial unique index); claims by other teams may wait as pending. last_seen_at: the last daily
-- re-check that found the record; a record gone for 7 days un-verifies the domain.
-- Table and index names are identical in both schemas.

CREATE TABLE team_domains (
    id BLOB PRIMARY KEY,
    team_id BLOB NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    domain TEXT NOT NULL,
    txt_token TEXT NOT NULL,
    status TEXT NOT NULL CONSTRAINT team_domains_status_check CHECK (status IN ('pending', 'verified')),
    created_by BLOB REFERENCES users (id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    verified_at TEXT,
    last_checked_at TEXT,
    last_seen_at TEXT,
    CONSTRAINT team_domains_team_domain_key UNIQUE (team_id, domain)
);
CREATE UNIQUE INDEX team_domains_verified_key ON team_domains (domain) WHERE status = 'verified';
CREATE INDEX team_domains_checked_idx ON team_domains (last_checked_at);
