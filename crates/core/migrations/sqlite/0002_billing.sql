-- Billing: each user's Stripe customer, their subscription as Stripe last reported it, and the
-- webhook events received (idempotency by event id, and a log for operators).
-- Constraint names are identical in the PostgreSQL schema.

CREATE TABLE stripe_customers (
    user_id BLOB PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    customer_id TEXT NOT NULL CONSTRAINT stripe_customers_customer_id_key UNIQUE,
    created_at TEXT NOT NULL
);

CREATE TABLE subscriptions (
    id BLOB PRIMARY KEY,
    user_id BLOB NOT NULL CONSTRAINT subscriptions_user_id_key UNIQUE
        REFERENCES users (id) ON DELETE CASCADE,
    customer_id TEXT NOT NULL,
    subscription_id TEXT NOT NULL,
    price_id TEXT,
    status TEXT NOT NULL,
    cancel_at_period_end BOOLEAN NOT NULL DEFAULT FALSE,
    -- Unix seconds, as Stripe reports them.
    current_period_end BIGINT,
    payment_method_brand TEXT,
    payment_method_last4 TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX subscriptions_subscription_idx ON subscriptions (subscription_id);

CREATE TABLE webhook_events (
    event_id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    received_at TEXT NOT NULL,
    processed_at TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT
);
CREATE INDEX webhook_events_received_idx ON webhook_events (received_at);
