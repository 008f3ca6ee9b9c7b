//! `usage show` and `usage grant`: the desktop app's calls, through `closewise_core::usage` (the
//! service the API's handlers call).

use closewise_core::store::{CallRow, GrantRow};
use closewise_core::usage::Summary;
use serde_json::{json, Value};

use crate::ctx::Ctx;
use crate::opt::{Reason, UsageGrant, UserShow};
use crate::print::{self, fields, rfc3339, rfc3339_opt, table, when, when_opt};

/// How many calls `usage show` lists.
const RECENT_CALLS: i64 = 10;

fn call_json(c: &CallRow) -> Value {
    json!({
        "id": c.id,
        "client_call_id": c.client_call_id,
        "free": c.free,
        "max_seconds": c.max_seconds,
        "started_at": rfc3339(c.started_at),
        "last_heartbeat_at": rfc3339(c.last_heartbeat_at),
        "ended_at": rfc3339_opt(c.ended_at),
        "ended_reason": c.ended_reason,
        "duration_seconds": c.duration_seconds,
    })
}

fn grant_json(g: &GrantRow) -> Value {
    json!({
        "calls": g.calls,
        "actor": g.actor,
        "reason": g.reason,
        "created_at": rfc3339(g.created_at),
    })
}

fn summary_json(email: &str, s: &Summary) -> Value {
    let e = &s.current.entitlements;
    json!({
        "email": email,
        "plan_type": e.plan_type,
        "unlimited": e.unlimited,
        "warning": e.warning.map(|w| w.as_str()),
        "calls": e.calls.map(|c| json!({ "limit": c.limit, "used": c.used, "remaining": c.remaining })),
        "max_call_seconds": e.max_call_seconds,
        "calls_this_month": s.current.calls_this_month,
        "granted": s.grants.iter().map(|g| i64::from(g.calls)).sum::<i64>(),
        "grants": s.grants.iter().map(grant_json).collect::<Vec<_>>(),
        "recent_calls": s.recent_calls.iter().map(call_json).collect::<Vec<_>>(),
    })
}

fn summary_screen(email: &str, s: &Summary) -> String {
    let e = &s.current.entitlements;
    let granted: i64 = s.grants.iter().map(|g| i64::from(g.calls)).sum();
    let mut out = format!("Usage of {email}\n");
    out.push_str(&fields(&[
        (
            "plan",
            format!(
                "{}{}",
                e.plan_type,
                if e.unlimited { " (unlimited)" } else { "" }
            ),
        ),
        (
            "free calls",
            match e.calls {
                Some(c) => format!("{} used of {} ({} left)", c.used, c.limit, c.remaining),
                None => "not metered on the paid plan".into(),
            },
        ),
        ("granted", format!("{granted} call(s)")),
        (
            "this month",
            format!("{} call(s)", s.current.calls_this_month),
        ),
        (
            "warning",
            e.warning
                .map(|w| w.as_str().to_owned())
                .unwrap_or_else(|| "-".into()),
        ),
    ]));
    out.push_str("\n\nGrants\n");
    if s.grants.is_empty() {
        out.push_str("  none");
    } else {
        let rows: Vec<Vec<String>> = s
            .grants
            .iter()
            .map(|g| {
                vec![
                    when(g.created_at),
                    g.calls.to_string(),
                    g.actor.clone(),
                    g.reason.clone(),
                ]
            })
            .collect();
        out.push_str(&table(&["WHEN", "CALLS", "WHO", "WHY"], &rows));
    }
    out.push_str(&format!("\n\nRecent calls (newest {RECENT_CALLS})\n"));
    if s.recent_calls.is_empty() {
        out.push_str("  none");
    } else {
        let rows: Vec<Vec<String>> = s
            .recent_calls
            .iter()
            .map(|c| {
                vec![
                    when(c.started_at),
                    if c.free { "free" } else { "paid" }.into(),
                    c.duration_seconds
                        .map(|d| format!("{d} s"))
                        .unwrap_or_else(|| "going".into()),
                    c.ended_reason.clone().unwrap_or_else(|| "-".into()),
                    when_opt(c.ended_at),
                    c.client_call_id.clone(),
                ]
            })
            .collect();
        out.push_str(&table(
            &[
                "STARTED",
                "KIND",
                "LENGTH",
                "ENDED",
                "ENDED AT",
                "CLIENT ID",
            ],
            &rows,
        ));
    }
    out
}

pub async fn show(ctx: &Ctx, a: UserShow) -> anyhow::Result<()> {
    let user = ctx.user(&a.email).await?;
    let summary = ctx.usage.summary(user.id, RECENT_CALLS).await?;
    if a.output.json {
        return print::json(&summary_json(&user.email, &summary));
    }
    println!("{}", summary_screen(&user.email, &summary));
    Ok(())
}

pub async fn grant(ctx: &Ctx, a: UsageGrant) -> anyhow::Result<()> {
    if a.reason.trim().is_empty() {
        return Err(crate::UsageError(
            "--reason must say why the calls are granted (it goes into the audit trail)".into(),
        )
        .into());
    }
    let user = ctx.user(&a.email).await?;
    let usage = &ctx.usage;
    let before = usage.summary(user.id, 0).await?.current.entitlements;
    let limit_before = before
        .calls
        .map(|c| c.limit.to_string())
        .unwrap_or_else(|| "unlimited: paid plan".into());
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Grant {} more free call(s) to {} (limit now {limit_before})?",
            a.calls, user.email
        ),
    )?;
    let reason = Reason {
        reason: Some(a.reason.trim().to_owned()),
    };
    let operator = ctx.operator(&reason)?;
    usage
        .grant(&operator, (user.id, &user.email), a.calls)
        .await?;
    let after = usage.summary(user.id, 0).await?.current.entitlements;
    match (before.calls, after.calls) {
        (Some(b), Some(n)) => println!(
            "{}: {} more free call(s); the limit is {} (was {}), {} left.",
            user.email, a.calls, n.limit, b.limit, n.remaining
        ),
        _ => println!(
            "{}: {} more free call(s) granted; they apply once the account is on the Free Trial.",
            user.email, a.calls
        ),
    }
    Ok(())
}
