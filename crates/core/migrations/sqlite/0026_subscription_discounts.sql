-- The discount on a subscription, personal (subscriptions) or a team's (teams), as Stripe last
-- reported it: its coupon's terms and end as JSON (closewise_domain::promotion::Discount), NULL
-- when it has none. Column names are identical in both schemas.
ALTER TABLE subscriptions ADD COLUMN discount TEXT;
ALTER TABLE teams ADD COLUMN discount TEXT;
