//! `subscriptions sync` and `webhooks ...`: Stripe is the truth, read through core's billing
//! client, and stored through `apply_subscription_audited` (the webhook's `apply_subscription`
//! with the customer and the audit row in the same transaction).

use std::collections::BTreeMap;
use std::time::Duration;

use closewise_core::billing::{StripeClient, StripeConnection, StripeFailure};
use closewise_core::store::admin::UserFilter;
use closewise_core::store::billing::BillingRows;
use closewise_core::store::{
    PlanRow, SubscriptionRecord, SubscriptionRow, UserRow, WebhookEventRow,
};
use closewise_domain::subscription::plan_for_subscription;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use serde_json::{json, Value};

use crate::ctx::Ctx;
use crate::opt::{StripeArgs, SubscriptionSync, WebhooksList};
use crate::print::{self, table, when, when_opt};

pub fn client(a: &StripeArgs) -> anyhow::Result<StripeClient> {
    StripeClient::new(&StripeConnection {
        api_base: a.stripe_api_base.trim_end_matches('/').to_owned(),
        secret_key: a.stripe_secret_key.clone().into(),
        timeout: Duration::from_secs(a.stripe_timeout_secs),
    })
}

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

async fn sync_one(
    ctx: &Ctx,
    stripe: &StripeClient,
    user: &UserRow,
    a: &SubscriptionSync,
) -> anyhow::Result<SyncReport> {
    let plan = ctx.store.plan_of(user.id).await?;
    let sub = ctx.store.subscription_of(user.id).await?;
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
    let id = match (id, ctx.store.stripe_customer_of(user.id).await?) {
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
    if a.dry_run {
        let before = snapshot(plan.as_ref(), sub.as_ref());
        report.changes = diff(&before, &expected(&record));
        report.outcome = if report.changes.is_empty() {
            Outcome::InSync
        } else {
            Outcome::WouldRepair
        };
        return Ok(report);
    }
    // The change and its audit row in one transaction; the row describes what the transaction
    // saw before and after, and is left out when nothing changed.
    let mut audit = ctx.audit("subscription.sync", user, &a.reason, Value::Null)?;
    let (before, after) = ctx
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

pub async fn sync(ctx: &Ctx, a: SubscriptionSync) -> anyhow::Result<()> {
    let stripe = client(&a.stripe)?;
    let users = match &a.email {
        Some(email) => vec![ctx.user(email).await?],
        None => {
            let all = ctx
                .store
                .admin_users(UserFilter::default(), i64::MAX)
                .await?;
            let mut users = Vec::with_capacity(all.len());
            for u in all {
                if let Some(row) = ctx.store.user_by_id(u.id).await? {
                    users.push(row);
                }
            }
            users
        }
    };
    // Drawn on standard error, and only on a terminal: scripts and --json stay clean.
    let bar = if a.all {
        ProgressBar::new(users.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    if !a.dry_run {
        let question = match &a.email {
            Some(_) => format!(
                "Repair the subscription and plan of {} from Stripe?",
                users
                    .iter()
                    .map(|u| u.email.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => format!(
                "Repair the subscriptions and plans of all {} account(s) from Stripe?",
                users.len()
            ),
        };
        ctx.confirm(a.confirm.yes, &question)?;
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut reports = Vec::new();
    for user in &users {
        bar.set_message(user.email.clone());
        let report = sync_one(ctx, &stripe, user, &a).await?;
        if a.all && report.outcome == Outcome::NoSubscription {
            bar.inc(1);
            continue;
        }
        reports.push(report);
        bar.inc(1);
    }
    bar.finish_and_clear();

    let failed = reports
        .iter()
        .filter(|r| r.outcome == Outcome::Failed)
        .count();
    if a.output.json {
        print::json(&reports)?;
    } else {
        print_reports(&reports, a.dry_run);
    }
    if failed > 0 {
        anyhow::bail!("{failed} subscription(s) could not be synchronised; see above");
    }
    Ok(())
}

fn print_reports(reports: &[SyncReport], dry_run: bool) {
    if reports.is_empty() {
        println!("No subscriptions to synchronise.");
        return;
    }
    for r in reports {
        let id = r.subscription_id.as_deref().unwrap_or("-");
        let head = match r.outcome {
            Outcome::InSync => "in sync",
            Outcome::Repaired => "repaired",
            Outcome::WouldRepair => "would repair",
            Outcome::NoSubscription => "no subscription known; nothing to compare",
            Outcome::Failed => "FAILED",
        };
        println!("{} ({id}): {head}", r.email);
        for c in &r.changes {
            println!("  {}: {} -> {}", c.field, c.from, c.to);
        }
        if let Some(e) = &r.error {
            println!("  {e}");
        }
    }
    let count = |o| reports.iter().filter(|r| r.outcome == o).count();
    let changed = if dry_run {
        format!("{} would be repaired", count(Outcome::WouldRepair))
    } else {
        format!("{} repaired", count(Outcome::Repaired))
    };
    println!(
        "\n{} checked: {changed}, {} in sync, {} failed.",
        reports.len(),
        count(Outcome::InSync),
        count(Outcome::Failed)
    );
}

/// A webhook event as `webhooks list --json` and `users show --json` print it.
pub fn webhook_event_json(e: &WebhookEventRow) -> Value {
    json!({
        "event_id": e.event_id,
        "type": e.kind,
        "received_at": print::rfc3339(e.received_at),
        "processed_at": print::rfc3339_opt(e.processed_at),
        "attempts": e.attempts,
        "error": e.error,
    })
}

pub async fn webhooks_list(ctx: &Ctx, a: WebhooksList) -> anyhow::Result<()> {
    // Failed events are rare; read generously and filter, the store keeps one plain query.
    let read = if a.failed {
        a.limit.saturating_mul(20)
    } else {
        a.limit
    };
    let mut events = ctx.store.webhook_events(read).await?;
    if a.failed {
        events.retain(|e| e.processed_at.is_none() && e.error.is_some());
    }
    events.truncate(usize::try_from(a.limit).unwrap_or(0));
    if a.output.json {
        let rows: Vec<Value> = events.iter().map(webhook_event_json).collect();
        return print::json(&rows);
    }
    if events.is_empty() {
        println!("No webhook events.");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = events
        .iter()
        .map(|e| {
            vec![
                e.event_id.clone(),
                e.kind.clone(),
                when(e.received_at),
                when_opt(e.processed_at),
                e.attempts.to_string(),
                e.error.clone().unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    println!(
        "{}",
        table(
            &["EVENT", "TYPE", "RECEIVED", "PROCESSED", "TRIES", "ERROR"],
            &rows
        )
    );
    Ok(())
}
