-- The proration dates an interval preview (monthly to yearly, or back) issued for a Stripe
-- subscription, personal or a team's, and when (Unix milliseconds): the switch may name only one
-- of these, issued within the last ten minutes
-- (closewise_domain::team_billing::proration_date_accepted). Rows older than that are deleted
-- whenever the subscription is issued a new one. Table and column names are identical in both
-- schemas.
CREATE TABLE interval_quotes (
    subscription_id TEXT NOT NULL,
    proration_date INTEGER NOT NULL,
    issued_at_ms INTEGER NOT NULL,
    PRIMARY KEY (subscription_id, proration_date)
);
