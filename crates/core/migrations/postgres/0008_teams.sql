-- Sales teams (issue 15, docs/teams.md): a team with its own subscription and seats, its members
-- (a user is in at most one team), invitations by e-mail and domain-join requests.
-- Constraint and index names are identical in the SQLite schema.

-- The subscription is the team's, not the owner's personal one. seats: the subscription item's
-- quantity (0 before checkout). current_period_end: Unix seconds, as Stripe reports them.
-- join_domain: NULL while domain join is off. The owner's account going takes the team with it.
CREATE TABLE teams (
    id UUID PRIMARY KEY,
    name TEXT NOT NULL,
    owner_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    stripe_customer_id TEXT,
    subscription_id TEXT,
    price_id TEXT,
    seats INTEGER NOT NULL DEFAULT 0 CONSTRAINT teams_seats_check CHECK (seats >= 0),
    subscription_status TEXT,
    current_period_end BIGINT,
    cancel_at_period_end BOOLEAN NOT NULL DEFAULT FALSE,
    join_domain TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX teams_owner_idx ON teams (owner_id);

-- The owner is a member too and holds a seat. A member's account going frees their seat.
CREATE TABLE team_members (
    team_id UUID NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id UUID NOT NULL CONSTRAINT team_members_user_id_key UNIQUE
        REFERENCES users (id) ON DELETE CASCADE,
    role TEXT NOT NULL CONSTRAINT team_members_role_check CHECK (role IN ('owner', 'admin', 'member')),
    joined_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (team_id, user_id)
);

-- Invitations: the link's token is stored as its SHA-256 (hex); email is normalised. Pending: not
-- accepted, declined nor revoked, and not expired (7 days); a pending invite holds a seat.
CREATE TABLE team_invites (
    id UUID PRIMARY KEY,
    team_id UUID NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    role TEXT NOT NULL CONSTRAINT team_invites_role_check CHECK (role IN ('admin', 'member')),
    token_hash TEXT NOT NULL CONSTRAINT team_invites_token_hash_key UNIQUE,
    invited_by UUID REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    last_sent_at TIMESTAMPTZ NOT NULL,
    accepted_at TIMESTAMPTZ,
    declined_at TIMESTAMPTZ,
    revoked_at TIMESTAMPTZ
);
CREATE INDEX team_invites_team_idx ON team_invites (team_id);
CREATE INDEX team_invites_email_idx ON team_invites (email);

-- Requests to join a team that turned domain join on; an admin decides.
CREATE TABLE team_join_requests (
    id UUID PRIMARY KEY,
    team_id UUID NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
    decided_at TIMESTAMPTZ,
    decision TEXT CONSTRAINT team_join_requests_decision_check
        CHECK (decision IN ('approved', 'denied'))
);
CREATE INDEX team_join_requests_team_idx ON team_join_requests (team_id);
CREATE INDEX team_join_requests_user_idx ON team_join_requests (user_id);
