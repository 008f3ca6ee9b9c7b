-- A team's policy for the desktop app (issue 26, docs/teams.md "Policies"): the canonical JSON the
-- owner or an admin last saved, its policy_version (SHA-256 of that JSON), who saved it and when.
-- A team without a row has the default policy. The "require a second factor" switch stays in
-- teams.require_mfa (its source of truth); the stored JSON mirrors it.
-- Table and column names are identical in the other database's schema.

CREATE TABLE team_policies (
    team_id UUID PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
    policy TEXT NOT NULL,
    policy_version TEXT NOT NULL,
    updated_by UUID REFERENCES users (id) ON DELETE SET NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

-- The policy_version a device reported in its last heartbeat, and when; and the one each call ran
-- under (its latest heartbeat's).
ALTER TABLE sessions ADD COLUMN policy_version TEXT;
ALTER TABLE sessions ADD COLUMN policy_reported_at TIMESTAMPTZ;
ALTER TABLE calls ADD COLUMN policy_version TEXT;
