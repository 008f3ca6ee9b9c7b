-- A team's free trial, once: recorded when Stripe first reports the team's subscription
-- trialing. A team, its Stripe customer and its owner each get one trial (kept after the team
-- goes, so deleting a team does not give a second one); `reminded_at` is when the owner was
-- mailed that it ends soon. Table and column names are identical in both schemas.
CREATE TABLE team_trials (
    team_id BLOB PRIMARY KEY,
    owner_id BLOB NOT NULL,
    customer_id TEXT NOT NULL,
    subscription_id TEXT NOT NULL,
    trial_end BIGINT,
    started_at TEXT NOT NULL,
    reminded_at TEXT
);
CREATE INDEX team_trials_owner_idx ON team_trials (owner_id);
CREATE INDEX team_trials_customer_idx ON team_trials (customer_id);
