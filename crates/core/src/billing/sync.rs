//! `closewise subscriptions sync`: Stripe is the truth; the stored subscription and plan are
//! compared with it field by field and repaired through `apply_subscription_audited` (the
//! webhook's `apply_subscription` with the customer and the audit row in the same transaction).

use std::collections::BTreeMap;

use closewise_domain::subscription::plan_for_subscription;
use serde::Serialize;
use serde_json::{json, Value};

use super::{Billing, StripeFailure};
use crate::actor::Actor;
use crate::store::billing::BillingRows;
use crate::store::{PlanRow, SubscriptionRecord, SubscriptionRow, UserRow};

#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Stored subscription and plan already match Stripe.
    InSync,
    /// Something differed and was repaired.
    Repaired,
    /// `--dry-run`: something differs and would be repaired.
    WouldRepair,
    /// No subscription known for the account: nothing to compare.
    NoSubscription,
    /// Stripe could not answer, or has no such subscription.
    Failed,
}

#[derive(Serialize, Debug)]
pub struct Change {
    pub field: &'static str,
    pub from: Value,
    pub to: Value,
}

#[derive(Serialize, Debug)]
pub struct SyncReport {
    pub email: String,
    pub subscription_id: Option<String>,
    pub outcome: Outcome,
    pub changes: Vec<Change>,
    pub error: Option<String>,
}

type Snapshot = BTreeMap<&'static str, Value>;

fn snapshot(plan: Option<&PlanRow>, sub: Option<&SubscriptionRow>) -> Snapshot {
    BTreeMap::from([
        ("plan.type", json!(plan.map(|p| &p.plan_type))),
        ("plan.status", json!(plan.map(|p| &p.status))),
        ("subscription.id", json!(sub.map(|s| &s.subscription_id))),
        ("subscription.customer", json!(sub.map(|s| &s.customer_id))),
        ("subscription.status", json!(sub.map(|s| &s.status))),
        (
            "subscription.cancel_at_period_end",
            json!(sub.map(|s| s.cancel_at_period_end)),
        ),
        (
            "subscription.current_period_end",
            json!(sub.and_then(|s| s.current_period_end)),
        ),
        (
            "subscription.price",
            json!(sub.and_then(|s| s.price_id.clone())),
        ),
        (
            "subscription.card_brand",
            json!(sub.and_then(|s| s.payment_method_brand.clone())),
        ),
        (
            "subscription.card_last4",
            json!(sub.and_then(|s| s.payment_method_last4.clone())),
        ),
        (
            "subscription.discount",
            json!(sub.and_then(|s| s.discount())),
        ),
    ])
}

fn rows(r: &BillingRows) -> Snapshot {
    snapshot(r.plan.as_ref(), r.subscription.as_ref())
}

/// What the stored rows should say once `record` is applied.
fn expected(record: &SubscriptionRecord) -> Snapshot {
    BTreeMap::from([
        (
            "plan.type",
            json!(plan_for_subscription(Some(record.status)).as_str()),
        ),
        ("plan.status", json!("active")),
        ("subscription.id", json!(record.subscription_id)),
        ("subscription.customer", json!(record.customer_id)),
        ("subscription.status", json!(record.status.as_str())),
        (
            "subscription.cancel_at_period_end",
            json!(record.cancel_at_period_end),
        ),
        (
            "subscription.current_period_end",
            json!(record.current_period_end),
        ),
        ("subscription.price", json!(record.price_id)),
        (
            "subscription.card_brand",
            json!(record.payment_method_brand),
        ),
        (
            "subscription.card_last4",
            json!(record.payment_method_last4),
        ),
        ("subscription.discount", json!(record.discount)),
    ])
}

fn diff(before: &Snapshot, after: &Snapshot) -> Vec<Change> {
    after
        .iter()
        .filter(|(k, v)| before.get(*k) != Some(v))
        .map(|(k, v)| Change {
            field: k,
            from: before.get(k).cloned().unwrap_or(Value::Null),
            to: v.clone(),
        })
        .collect()
}

impl Billing {
    /// Compares the account's stored subscription and plan with what Stripe says and, when an
    /// actor `repairs` (None: a dry run), repairs them: the repair and its audit row (what the
    /// transaction saw before and after; none when nothing changed) in one transaction. Stripe's
    /// failures are reported, not returned: a sync of many accounts goes on.
    pub async fn sync_subscription(
        &self,
        user: &UserRow,
        repairs: Option<&Actor>,
    ) -> Result<SyncReport, sqlx::Error> {
        let stripe = &self.stripe;
        let plan = self.store.plan_of(user.id).await?;
        let sub = self.store.subscription_of(user.id).await?;
        let id = sub
            .as_ref()
            .map(|s| s.subscription_id.clone())
            .or_else(|| plan.as_ref().and_then(|p| p.stripe_subscription_id.clone()));
        let mut report = SyncReport {
            email: user.email.clone(),
            subscription_id: id.clone(),
            outcome: Outcome::NoSubscription,
            changes: Vec::new(),
            error: None,
        };
        // None stored: the customer may still have paid (the webhook and the success page both
        // missed), so ask Stripe for the customer's subscriptions.
        let id = match (id, self.store.stripe_customer_of(user.id).await?) {
            (Some(id), _) => id,
            (None, None) => return Ok(report),
            (None, Some(customer)) => match stripe.customer_subscription(&customer).await {
                Ok(Some(id)) => id,
                Ok(None) => return Ok(report),
                Err(e) => {
                    report.outcome = Outcome::Failed;
                    report.error = Some(format!(
                    "cannot list the subscriptions of {customer}: {e}; nothing changed, run the sync again"
                ));
                    return Ok(report);
                }
            },
        };
        report.subscription_id = Some(id.clone());
        let record = match stripe.subscription(&id).await {
            Ok(r) => r,
            Err(e) => {
                report.outcome = Outcome::Failed;
                report.error = Some(match e {
                    StripeFailure::NotFound => format!(
                        "Stripe has no subscription {id}; check --stripe-api-base and the key, \
                     or set the plan by hand with `closewise plans set`"
                    ),
                    other => format!("{other}; nothing changed, run the sync again"),
                });
                return Ok(report);
            }
        };
        let Some(actor) = repairs else {
            let before = snapshot(plan.as_ref(), sub.as_ref());
            report.changes = diff(&before, &expected(&record));
            report.outcome = if report.changes.is_empty() {
                Outcome::InSync
            } else {
                Outcome::WouldRepair
            };
            return Ok(report);
        };
        // The change and its audit row in one transaction; the row describes what the transaction
        // saw before and after, and is left out when nothing changed.
        let email = Some(user.email.clone());
        let now = self.clock.now();
        let mut audit = actor.audit("subscription.sync", Some(user.id), email, Value::Null, now);
        let (before, after) = self
        .store
        .apply_subscription_audited(user.id, &record, audit.now, |before, after| {
            let changes = diff(&rows(before), &rows(after));
            if changes.is_empty() {
                return None;
            }
            audit.details = json!({ "subscription_id": id, "stripe_status": record.status.as_str(), "changes": changes });
            Some(audit)
        })
        .await?;
        let after = rows(&after);
        report.changes = diff(&rows(&before), &after);
        report.outcome = if report.changes.is_empty() {
            Outcome::InSync
        } else {
            Outcome::Repaired
        };
        let left = after.get("plan.type") != expected(&record).get("plan.type");
        if left {
            report.error = Some(format!(
            "the plan stays {} (set by hand, not from this subscription); change it with `closewise plans set`",
            after["plan.type"]
        ));
        }
        Ok(report)
    }
}

impl Billing {
    /// The newest webhook events first.
    pub async fn webhook_events(
        &self,
        limit: i64,
    ) -> Result<Vec<crate::store::WebhookEventRow>, sqlx::Error> {
        self.store.webhook_events(limit).await
    }
}
