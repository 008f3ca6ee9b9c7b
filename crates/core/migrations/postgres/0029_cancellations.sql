-- The reason a subscriber gave when they set a subscription (personal or a team's) to end at its
-- period's end, by Stripe's subscription id. Removed when the subscription renews again (resumed
-- here or in Stripe's portal); kept once it has ended. Names are identical in both schemas.
CREATE TABLE subscription_cancellations (
    subscription_id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
