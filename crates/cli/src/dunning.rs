//! `billing dunning list`: the subscriptions past due, from core's billing service.

use closewise_core::billing::dunning::PastDue;
use closewise_domain::idle_seats::money;
use serde_json::json;
use time::OffsetDateTime;

use crate::ctx::Ctx;
use crate::opt::Output;
use crate::print::{self, table, when};

fn at(unix: i64) -> Option<OffsetDateTime> {
    OffsetDateTime::from_unix_timestamp(unix).ok()
}

pub async fn list(ctx: &Ctx, output: Output) -> anyhow::Result<()> {
    let past_due = ctx.billing.past_due().await?;
    if output.json {
        let rows: Vec<_> = past_due
            .iter()
            .map(|p| {
                json!({
                    "email": p.email,
                    "team": p.team,
                    "subscription_id": p.subscription_id,
                    "invoice_id": p.invoice_id,
                    "past_due_since": at(p.past_due_since).map(print::rfc3339),
                    "attempt_count": p.attempt_count,
                    "next_payment_attempt": print::rfc3339_opt(p.next_payment_attempt.and_then(at)),
                    "amount_due": p.amount_due,
                    "currency": p.currency,
                })
            })
            .collect();
        return print::json(&rows);
    }
    if past_due.is_empty() {
        println!("Nobody is past due.");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = past_due.iter().map(row).collect();
    print!(
        "{}",
        table(
            &[
                "ACCOUNT",
                "TEAM",
                "SUBSCRIPTION",
                "AMOUNT",
                "PAST DUE SINCE",
                "ATTEMPTS",
                "NEXT TRY"
            ],
            &rows
        )
    );
    Ok(())
}

fn row(p: &PastDue) -> Vec<String> {
    vec![
        p.email.clone().unwrap_or_else(|| "-".into()),
        p.team.clone().unwrap_or_else(|| "-".into()),
        p.subscription_id.clone(),
        money(p.amount_due, &p.currency),
        at(p.past_due_since).map_or_else(|| "-".into(), when),
        p.attempt_count.to_string(),
        p.next_payment_attempt
            .and_then(at)
            .map_or_else(|| "none left".into(), when),
    ]
}
