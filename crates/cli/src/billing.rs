//! `subscriptions sync` and `webhooks ...`: Stripe is the truth; core's billing service
//! compares and repairs (`closewise_core::billing::sync`), this renders.

use std::time::Duration;

use closewise_core::billing::sync::{Outcome, SyncReport};
use closewise_core::billing::{StripeClient, StripeConnection};
use closewise_core::store::WebhookEventRow;
use indicatif::{ProgressBar, ProgressStyle};
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

pub async fn sync(ctx: &Ctx, a: SubscriptionSync) -> anyhow::Result<()> {
    // The root's billing talks to the Stripe of `a.stripe`.
    let users = match &a.email {
        Some(email) => vec![ctx.user(email).await?],
        None => ctx.accounts.all().await?,
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
    // A dry run only compares: no actor, no change.
    let operator = match a.dry_run {
        true => None,
        false => Some(ctx.operator(&a.reason)?),
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut reports = Vec::new();
    for user in &users {
        bar.set_message(user.email.clone());
        let report = (ctx.billing)
            .sync_subscription(user, operator.as_ref())
            .await?;
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
    let mut events = ctx.billing.webhook_events(read).await?;
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
