-- Failed payments being retried (dunning): one row per subscription whose renewal Stripe is
-- still trying to collect, personal (user_id) or a team's (team_id), removed when the payment
-- succeeds or the subscription ends. past_due_since, next_payment_attempt: Unix seconds, as
-- Stripe reports them. Constraint and index names are identical in the PostgreSQL schema.
CREATE TABLE payment_failures (
    subscription_id TEXT PRIMARY KEY,
    user_id BLOB REFERENCES users (id) ON DELETE CASCADE,
    team_id BLOB REFERENCES teams (id) ON DELETE CASCADE,
    invoice_id TEXT NOT NULL,
    past_due_since BIGINT NOT NULL,
    attempt_count INTEGER NOT NULL,
    next_payment_attempt BIGINT,
    amount_due BIGINT NOT NULL,
    currency TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CONSTRAINT payment_failures_payer_check CHECK ((user_id IS NULL) <> (team_id IS NULL))
);
CREATE INDEX payment_failures_user_idx ON payment_failures (user_id);
CREATE INDEX payment_failures_team_idx ON payment_failures (team_id);
