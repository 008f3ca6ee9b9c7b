-- Accounts: users, plans, e-mail tokens, sessions, refresh tokens, mail outbox.
-- Constraint names are identical in the SQLite schema: error mapping keys on them.

CREATE TABLE users (
    id UUID PRIMARY KEY,
    email TEXT NOT NULL CONSTRAINT users_email_key UNIQUE,
    password_hash TEXT NOT NULL,
    email_confirmed_at TIMESTAMPTZ,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE user_plans (
    id UUID PRIMARY KEY,
    user_id UUID NOT NULL CONSTRAINT user_plans_user_id_key UNIQUE
        REFERENCES users (id) ON DELETE CASCADE,
    plan_type TEXT NOT NULL CONSTRAINT user_plans_plan_type_check CHECK (plan_type IN ('free', 'monthly')),
    status TEXT NOT NULL CONSTRAINT user_plans_status_check CHECK (status IN ('active', 'inactive')),
    plan_started_at TIMESTAMPTZ NOT NULL,
    plan_updated_at TIMESTAMPTZ NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    stripe_subscription_id TEXT,
    stripe_customer_id TEXT,
    subscription_id TEXT
);

CREATE TABLE email_tokens (
    id UUID PRIMARY KEY,
    user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CONSTRAINT email_tokens_kind_check CHECK (kind IN ('verification', 'reset')),
    token_hash TEXT NOT NULL CONSTRAINT email_tokens_token_hash_key UNIQUE,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ
);
CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, kind);

CREATE TABLE sessions (
    id UUID PRIMARY KEY,
    user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
    refreshed_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ,
    revoked_reason TEXT,
    user_agent TEXT,
    ip TEXT
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE refresh_tokens (
    id UUID PRIMARY KEY,
    session_id UUID NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL CONSTRAINT refresh_tokens_token_hash_key UNIQUE,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    rotated_at TIMESTAMPTZ
);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

CREATE TABLE mail_outbox (
    id UUID PRIMARY KEY,
    to_email TEXT NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    link TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    -- Unix milliseconds: compared in SQL by the worker, the same way on both databases.
    due_at_ms BIGINT NOT NULL,
    sent_at TIMESTAMPTZ,
    failed_at TIMESTAMPTZ,
    last_error TEXT
);
CREATE INDEX mail_outbox_to_idx ON mail_outbox (to_email);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (due_at_ms) WHERE sent_at IS NULL AND failed_at IS NULL;
