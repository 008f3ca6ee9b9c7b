//! Billing: each user's Stripe customer, the subscription as Stripe last reported it (the spec's
//! `stripe_user_subscriptions`), the plan it gives, and the webhook events received.

use std::sync::LazyLock;

use closewise_domain::cancellation::CancellationReason;
use closewise_domain::promotion::Discount;
use closewise_domain::subscription::SubscriptionStatus;
use time::OffsetDateTime;
use uuid::Uuid;

use super::audit::{write_audit, NewAudit};
use super::plans::PlanRow;
use super::revocations::{notify_revoked, Revoked};
use super::{dispatch, domain_sql, Store};

/// A subscription as Stripe reported it, ready to be stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubscriptionRecord {
    pub customer_id: String,
    pub subscription_id: String,
    pub price_id: Option<String>,
    pub status: SubscriptionStatus,
    pub cancel_at_period_end: bool,
    /// Unix seconds.
    pub current_period_end: Option<i64>,
    pub payment_method_brand: Option<String>,
    pub payment_method_last4: Option<String>,
    /// The subscription's discount (its first), if it has one.
    pub discount: Option<Discount>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SubscriptionRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub customer_id: String,
    pub subscription_id: String,
    pub price_id: Option<String>,
    #[sqlx(try_from = "String")]
    pub status: SubscriptionStatus,
    pub cancel_at_period_end: bool,
    pub current_period_end: Option<i64>,
    pub payment_method_brand: Option<String>,
    pub payment_method_last4: Option<String>,
    /// The discount as JSON; [`SubscriptionRow::discount`] reads it.
    #[sqlx(rename = "discount")]
    pub discount_json: Option<String>,
    /// The reason given when it was set to end here (`cancellation::CancellationReason`'s code).
    #[sqlx(default)]
    pub cancellation_reason: Option<String>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

impl SubscriptionRow {
    pub fn counts_as_subscribed(&self) -> bool {
        self.status.counts_as_subscribed()
    }

    /// The subscription's discount as last stored.
    pub fn discount(&self) -> Option<Discount> {
        discount_of(self.discount_json.as_deref())
    }
}

/// A discount as its column holds it: JSON, or NULL for none.
pub(crate) fn discount_column(discount: &Option<Discount>) -> Option<String> {
    discount
        .as_ref()
        .and_then(|d| serde_json::to_string(d).ok())
}

/// A discount column read back; a value this build cannot read is no discount (the next sync or
/// webhook writes it again).
pub fn discount_of(column: Option<&str>) -> Option<Discount> {
    column.and_then(|json| serde_json::from_str(json).ok())
}

/// What storing a subscription changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fulfilment {
    /// False when the user already holds another subscription that counts as subscribed and this
    /// one does not (a late event about an old subscription): nothing was written.
    pub stored: bool,
    /// The plan changed: `Some("monthly")` on activation, `Some("free")` when it ended.
    pub plan_changed_to: Option<&'static str>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct WebhookEventRow {
    pub event_id: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub received_at: OffsetDateTime,
    pub processed_at: Option<OffsetDateTime>,
    pub attempts: i32,
    pub error: Option<String>,
}

/// Whether a webhook event still has to be processed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventReceipt {
    /// First delivery, or a redelivery of an event whose processing failed.
    Process,
    /// Already processed: a replay changes nothing.
    AlreadyProcessed,
}

/// One account's plan and subscription rows at one moment.
#[derive(Clone, Debug)]
pub struct BillingRows {
    pub plan: Option<PlanRow>,
    pub subscription: Option<SubscriptionRow>,
}

const PLAN_COLUMNS: &str = "id, user_id, plan_type, status, plan_started_at, plan_updated_at, \
    created_at, updated_at, stripe_subscription_id, stripe_customer_id, subscription_id";

const SUBSCRIPTION_COLUMNS: &str = "id, user_id, customer_id, subscription_id, price_id, status, \
    cancel_at_period_end, current_period_end, payment_method_brand, payment_method_last4, \
    discount, created_at, updated_at, (SELECT c.reason FROM subscription_cancellations c \
    WHERE c.subscription_id = subscriptions.subscription_id) AS cancellation_reason";

/// Forgets the reason of subscription `$1`: it renews again.
pub(crate) const FORGET_REASON: &str =
    "DELETE FROM subscription_cancellations WHERE subscription_id = $1";

/// Stores the reason `$2` for subscription `$1`, set to end at `$3`.
pub(crate) const SET_REASON: &str = "INSERT INTO subscription_cancellations \
    (subscription_id, reason, created_at) VALUES ($1, $2, $3) \
    ON CONFLICT (subscription_id) DO UPDATE SET reason = excluded.reason, \
    created_at = excluded.created_at";

/// Keeps the reason of `$record`'s subscription consistent with what Stripe now says of it, on
/// the connection or transaction `$conn` (`cancellation::reason_survives`).
macro_rules! sync_reason {
    ($conn:expr, $record:expr) => {
        if !closewise_domain::cancellation::reason_survives(
            $record.cancel_at_period_end,
            $record.status,
        ) {
            sqlx::query($crate::store::billing::FORGET_REASON)
                .bind(&$record.subscription_id)
                .execute($conn)
                .await?;
        }
    };
}
pub(crate) use sync_reason;

/// Sets or clears the reason of a subscription just set to end, on `$conn`.
macro_rules! set_reason {
    ($conn:expr, $record:expr, $reason:expr, $now:expr) => {
        match $reason {
            Some(reason) => sqlx::query($crate::store::billing::SET_REASON)
                .bind(&$record.subscription_id)
                .bind(reason.as_str())
                .bind($now)
                .execute($conn)
                .await
                .map(|_| ()),
            None => sqlx::query($crate::store::billing::FORGET_REASON)
                .bind(&$record.subscription_id)
                .execute($conn)
                .await
                .map(|_| ()),
        }
    };
}
pub(crate) use set_reason;

/// Replaces the stored subscription unless that would hide a live one behind a dead one.
/// "Counts as subscribed" as an SQL list, from the domain's rule (the only home of it).
static UPSERT_SUBSCRIPTION: LazyLock<String> = LazyLock::new(|| {
    domain_sql(
        "INSERT INTO subscriptions (id, user_id, customer_id, \
    subscription_id, price_id, status, cancel_at_period_end, current_period_end, \
    payment_method_brand, payment_method_last4, created_at, updated_at, discount) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12) \
    ON CONFLICT (user_id) DO UPDATE SET customer_id = excluded.customer_id, \
    subscription_id = excluded.subscription_id, price_id = excluded.price_id, \
    status = excluded.status, cancel_at_period_end = excluded.cancel_at_period_end, \
    current_period_end = excluded.current_period_end, \
    payment_method_brand = excluded.payment_method_brand, \
    payment_method_last4 = excluded.payment_method_last4, updated_at = excluded.updated_at, \
    discount = excluded.discount \
    WHERE subscriptions.subscription_id = excluded.subscription_id \
       OR subscriptions.status NOT IN ({subscribed}) \
       OR excluded.status IN ({subscribed})",
    )
});

static ENSURE_PLAN: LazyLock<String> = LazyLock::new(|| {
    domain_sql(
        "INSERT INTO user_plans (id, user_id, plan_type, status, plan_started_at, \
    plan_updated_at, created_at, updated_at) VALUES ($1, $2, '{free}', '{active}', $3, $3, $3, $3) \
    ON CONFLICT (user_id) DO NOTHING",
    )
});

/// Monthly with the subscription's ids; a plan that is already exactly that is left untouched.
static ACTIVATE_PLAN: LazyLock<String> = LazyLock::new(|| {
    domain_sql(
        "UPDATE user_plans SET plan_type = '{monthly}', status = '{active}', \
    plan_started_at = CASE WHEN plan_type = '{monthly}' THEN plan_started_at ELSE $2 END, \
    plan_updated_at = $2, updated_at = $2, stripe_subscription_id = $3, stripe_customer_id = $4, \
    subscription_id = $3 \
    WHERE user_id = $1 AND (plan_type <> '{monthly}' OR status <> '{active}' \
       OR stripe_subscription_id IS NULL OR stripe_subscription_id <> $3 \
       OR stripe_customer_id IS NULL OR stripe_customer_id <> $4)",
    )
});

/// Back to free, only when the monthly plan came from this subscription.
static END_PLAN: LazyLock<String> = LazyLock::new(|| {
    domain_sql(
        "UPDATE user_plans SET plan_type = '{free}', status = '{active}', \
    plan_started_at = $2, plan_updated_at = $2, updated_at = $2, stripe_subscription_id = NULL, \
    subscription_id = NULL \
    WHERE user_id = $1 AND plan_type = '{monthly}' AND stripe_subscription_id = $3",
    )
});

/// `apply_subscription`'s statements on the open transaction `$tx`; evaluates to the `Fulfilment`.
macro_rules! apply_in {
    ($tx:ident, $select:ident, $user_id:expr, $record:expr, $now:expr) => {{
        let stored = sqlx::query(&UPSERT_SUBSCRIPTION)
            .bind(Uuid::now_v7())
            .bind($user_id)
            .bind(&$record.customer_id)
            .bind(&$record.subscription_id)
            .bind(&$record.price_id)
            .bind($record.status.as_str())
            .bind($record.cancel_at_period_end)
            .bind($record.current_period_end)
            .bind(&$record.payment_method_brand)
            .bind(&$record.payment_method_last4)
            .bind($now)
            .bind(discount_column(&$record.discount))
            .execute(&mut *$tx)
            .await?
            .rows_affected()
            == 1;
        sync_reason!(&mut *$tx, $record);
        let row = sqlx::query_as::<_, SubscriptionRow>(&$select)
            .bind($user_id)
            .fetch_one(&mut *$tx)
            .await?;
        sqlx::query(&ENSURE_PLAN)
            .bind(Uuid::now_v7())
            .bind($user_id)
            .bind($now)
            .execute(&mut *$tx)
            .await?;
        // The plan stays through a failed payment's retries (`keeps_plan`).
        let plan_changed_to = if row.status.keeps_plan() {
            let changed = sqlx::query(&ACTIVATE_PLAN)
                .bind($user_id)
                .bind($now)
                .bind(&row.subscription_id)
                .bind(&row.customer_id)
                .execute(&mut *$tx)
                .await?
                .rows_affected();
            (changed == 1).then_some("monthly")
        } else {
            let changed = sqlx::query(&END_PLAN)
                .bind($user_id)
                .bind($now)
                .bind(&row.subscription_id)
                .execute(&mut *$tx)
                .await?
                .rows_affected();
            (changed == 1).then_some("free")
        };
        Fulfilment {
            stored,
            plan_changed_to,
        }
    }};
}

impl Store {
    pub async fn stripe_customer_of(&self, user_id: Uuid) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, String>(
            "SELECT customer_id FROM stripe_customers WHERE user_id = $1"
        )
        .bind(user_id)
        .fetch_optional(p)
        .await)
    }

    pub async fn user_of_customer(&self, customer_id: &str) -> Result<Option<Uuid>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT user_id FROM stripe_customers WHERE customer_id = $1"
        )
        .bind(customer_id)
        .fetch_optional(p)
        .await)
    }

    /// Remembers the user's customer; when one is already stored, keeps it and returns it.
    pub async fn save_stripe_customer(
        &self,
        user_id: Uuid,
        customer_id: &str,
        now: OffsetDateTime,
    ) -> Result<String, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query(
                "INSERT INTO stripe_customers (user_id, customer_id, created_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (user_id) DO NOTHING",
            )
            .bind(user_id)
            .bind(customer_id)
            .bind(now)
            .execute(p)
            .await?;
            sqlx::query_scalar::<_, String>(
                "SELECT customer_id FROM stripe_customers WHERE user_id = $1",
            )
            .bind(user_id)
            .fetch_one(p)
            .await
        })
    }

    pub async fn subscription_of(
        &self,
        user_id: Uuid,
    ) -> Result<Option<SubscriptionRow>, sqlx::Error> {
        let select = format!("SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE user_id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, SubscriptionRow>(&select)
            .bind(user_id)
            .fetch_optional(p)
            .await)
    }

    /// Stores what Stripe says about the user's subscription and sets the plan it gives, in one
    /// transaction. Idempotent: the same record twice changes nothing the second time, so the
    /// success page's confirm call and the webhook may race.
    #[tracing::instrument(skip_all, fields(%user_id, subscription = %record.subscription_id))]
    pub async fn apply_subscription(
        &self,
        user_id: Uuid,
        record: &SubscriptionRecord,
        now: OffsetDateTime,
    ) -> Result<Fulfilment, sqlx::Error> {
        let select = format!("SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE user_id = $1");
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let fulfilment = apply_in!(tx, select, user_id, record, now);
            notify_revoked!(self, tx, Revoked::Reads(user_id));
            tx.commit().await?;
            self.revoked(Revoked::Reads(user_id));
            Ok(fulfilment)
        })
    }

    /// `apply_subscription` for an operator: also remembers the customer, and writes the audit
    /// row `audit` makes of the rows before and after (None: no row) in the same transaction.
    /// Returns the rows before and after.
    #[tracing::instrument(skip_all, fields(%user_id, subscription = %record.subscription_id))]
    pub async fn apply_subscription_audited<F>(
        &self,
        user_id: Uuid,
        record: &SubscriptionRecord,
        now: OffsetDateTime,
        audit: F,
    ) -> Result<(BillingRows, BillingRows), sqlx::Error>
    where
        F: FnOnce(&BillingRows, &BillingRows) -> Option<NewAudit>,
    {
        let select = format!("SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE user_id = $1");
        let select_plan = format!("SELECT {PLAN_COLUMNS} FROM user_plans WHERE user_id = $1");
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let before = BillingRows {
                plan: sqlx::query_as::<_, PlanRow>(&select_plan)
                    .bind(user_id)
                    .fetch_optional(&mut *tx)
                    .await?,
                subscription: sqlx::query_as::<_, SubscriptionRow>(&select)
                    .bind(user_id)
                    .fetch_optional(&mut *tx)
                    .await?,
            };
            sqlx::query(
                "INSERT INTO stripe_customers (user_id, customer_id, created_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (user_id) DO NOTHING",
            )
            .bind(user_id)
            .bind(&record.customer_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            apply_in!(tx, select, user_id, record, now);
            let after = BillingRows {
                plan: sqlx::query_as::<_, PlanRow>(&select_plan)
                    .bind(user_id)
                    .fetch_optional(&mut *tx)
                    .await?,
                subscription: sqlx::query_as::<_, SubscriptionRow>(&select)
                    .bind(user_id)
                    .fetch_optional(&mut *tx)
                    .await?,
            };
            if let Some(audit) = audit(&before, &after) {
                write_audit!(self, tx, &audit);
            }
            notify_revoked!(self, tx, Revoked::Reads(user_id));
            tx.commit().await?;
            self.revoked(Revoked::Reads(user_id));
            Ok((before, after))
        })
    }

    /// Stores a cancellation or a resumption just made at Stripe: the subscription as Stripe
    /// answered, the reason given (none: cleared) and the audit row, in one transaction.
    #[tracing::instrument(skip_all, fields(%user_id, subscription = %record.subscription_id))]
    pub async fn apply_cancellation_audited(
        &self,
        user_id: Uuid,
        record: &SubscriptionRecord,
        reason: Option<CancellationReason>,
        now: OffsetDateTime,
        audit: &NewAudit,
    ) -> Result<(), sqlx::Error> {
        let select = format!("SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE user_id = $1");
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            apply_in!(tx, select, user_id, record, now);
            if record.cancel_at_period_end {
                set_reason!(&mut *tx, record, reason, now)?;
            }
            write_audit!(self, tx, audit);
            notify_revoked!(self, tx, Revoked::Reads(user_id));
            tx.commit().await?;
            self.revoked(Revoked::Reads(user_id));
            Ok(())
        })
    }

    /// The reason stored for a subscription set to end, if one was given.
    pub async fn cancellation_reason(
        &self,
        subscription_id: &str,
    ) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, String>(
            "SELECT reason FROM subscription_cancellations WHERE subscription_id = $1"
        )
        .bind(subscription_id)
        .fetch_optional(p)
        .await)
    }
}
