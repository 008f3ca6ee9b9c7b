//! `teams list` and `teams show`, through `closewise_core::teams::Teams` (teams as an operator
//! sees them, without being a member: `teams::admin`). The changes are in `team_changes`.

use closewise_core::store::teams::TeamRow;
use closewise_core::teams::admin::{TeamDetail, TeamSummary};
use closewise_core::teams::{InviteView, MemberView, SeatsView, Teams};
use serde_json::{json, Value};

use crate::accounts::{indent, unix_date};
use crate::audit::{audit_json, audit_table};
use crate::ctx::Ctx;
use crate::opt::teams::{TeamShow, TeamsList};
use crate::print::{self, fields, rfc3339, table, when};

/// The teams service of the command's composition root: no budgets, links to `APP_BASE_URL`.
pub fn service(ctx: &Ctx) -> Teams {
    ctx.teams.clone()
}

fn seats_json(s: SeatsView) -> Value {
    json!({ "total": s.total, "used": s.used, "free": s.free })
}

/// The subscription fields of the team's row; null before the first checkout.
fn subscription_json(t: &TeamRow) -> Value {
    if t.subscription_id.is_none() && t.subscription_status.is_none() {
        return Value::Null;
    }
    json!({
        "status": t.subscription_status,
        "current_period_end": t.current_period_end,
        "cancel_at_period_end": t.cancel_at_period_end,
        "stripe_customer_id": t.stripe_customer_id,
        "subscription_id": t.subscription_id,
        "price_id": t.price_id,
    })
}

fn summary_json(s: &TeamSummary) -> Value {
    json!({
        "id": s.team.id,
        "name": s.team.name,
        "owner_id": s.team.owner_id,
        "owner_email": s.owner_email,
        "seats": seats_json(s.seats),
        "subscription_status": s.team.subscription_status,
        "created_at": rfc3339(s.team.created_at),
    })
}

fn member_json(m: &MemberView) -> Value {
    json!({
        "user_id": m.user_id,
        "email": m.email,
        "role": m.role.as_str(),
        "joined_at": rfc3339(m.joined_at),
        "calls_this_month": m.calls_this_month,
    })
}

fn invite_json(i: &InviteView) -> Value {
    json!({
        "id": i.id,
        "email": i.email,
        "role": i.role.as_str(),
        "created_at": rfc3339(i.created_at),
        "expires_at": rfc3339(i.expires_at),
        "last_sent_at": rfc3339(i.last_sent_at),
        "expired": i.expired,
    })
}

fn detail_json(d: &TeamDetail) -> Value {
    let t = &d.team;
    json!({
        "id": t.id,
        "name": t.name,
        "owner": { "user_id": t.owner_id, "email": d.owner_email },
        "created_at": rfc3339(t.created_at),
        "updated_at": rfc3339(t.updated_at),
        "seats": seats_json(d.seats),
        "subscription": subscription_json(t),
        "stripe_customer_id": t.stripe_customer_id,
        "join_domain": t.join_domain,
        "members": d.members.iter().map(member_json).collect::<Vec<_>>(),
        "invites": d.invites.iter().map(invite_json).collect::<Vec<_>>(),
        "audit": audit_json(&d.audit),
    })
}

/// `4/5`: seats used of total.
fn used_of(s: SeatsView) -> String {
    format!("{}/{}", s.used, s.total)
}

pub async fn list(ctx: &Ctx, a: TeamsList) -> anyhow::Result<()> {
    let teams = service(ctx).list(a.limit).await?;
    if a.output.json {
        return print::json(&teams.iter().map(summary_json).collect::<Vec<_>>());
    }
    if teams.is_empty() {
        println!("No teams.");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = teams
        .iter()
        .map(|s| {
            vec![
                s.team.id.to_string(),
                s.team.name.clone(),
                s.owner_email.clone(),
                used_of(s.seats),
                s.team
                    .subscription_status
                    .clone()
                    .unwrap_or_else(|| "-".into()),
                when(s.team.created_at),
            ]
        })
        .collect();
    println!(
        "{}",
        table(
            &["ID", "NAME", "OWNER", "SEATS", "SUBSCRIPTION", "CREATED"],
            &rows
        )
    );
    Ok(())
}

fn subscription_lines(t: &TeamRow) -> String {
    if subscription_json(t).is_null() {
        return format!(
            "  none (seats are recorded only){}",
            t.stripe_customer_id
                .as_ref()
                .map(|c| format!("; Stripe customer {c}"))
                .unwrap_or_default()
        );
    }
    let label = closewise_domain::subscription::period_label(t.cancel_at_period_end);
    let dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    fields(&[
        ("status", dash(&t.subscription_status)),
        (label.as_str(), unix_date(t.current_period_end)),
        (
            "cancels at period end",
            if t.cancel_at_period_end { "yes" } else { "no" }.into(),
        ),
        ("id", dash(&t.subscription_id)),
        ("customer", dash(&t.stripe_customer_id)),
        ("price", dash(&t.price_id)),
    ])
}

pub async fn show(ctx: &Ctx, a: TeamShow) -> anyhow::Result<()> {
    let admin = service(ctx);
    let found = admin.find(&a.team).await?;
    let d = admin.detail(found).await?;
    if a.output.json {
        return print::json(&detail_json(&d));
    }
    let t = &d.team;
    println!(
        "Team\n{}",
        fields(&[
            ("name", t.name.clone()),
            ("id", t.id.to_string()),
            ("owner", format!("{} ({})", d.owner_email, t.owner_id)),
            ("created", when(t.created_at)),
            (
                "seats",
                format!(
                    "{} used of {} ({} free)",
                    d.seats.used, d.seats.total, d.seats.free
                ),
            ),
            (
                "domain join",
                t.join_domain.clone().unwrap_or_else(|| "off".into()),
            ),
        ])
    );
    println!("\nSubscription\n{}", subscription_lines(t));
    println!("\nMembers ({})", d.members.len());
    let rows: Vec<Vec<String>> = d
        .members
        .iter()
        .map(|m| {
            vec![
                m.email.clone(),
                m.role.as_str().into(),
                when(m.joined_at),
                m.calls_this_month.to_string(),
                m.user_id.to_string(),
            ]
        })
        .collect();
    println!(
        "{}",
        indent(&table(
            &["EMAIL", "ROLE", "JOINED", "CALLS THIS MONTH", "USER ID"],
            &rows
        ))
    );
    println!("\nInvites");
    if d.invites.is_empty() {
        println!("  none pending");
    } else {
        let rows: Vec<Vec<String>> = d
            .invites
            .iter()
            .map(|i| {
                vec![
                    i.email.clone(),
                    i.role.as_str().into(),
                    when(i.last_sent_at),
                    if i.expired {
                        format!("expired {}", when(i.expires_at))
                    } else {
                        when(i.expires_at)
                    },
                ]
            })
            .collect();
        println!(
            "{}",
            indent(&table(&["EMAIL", "ROLE", "SENT", "EXPIRES"], &rows))
        );
    }
    println!("\nAudit trail");
    if d.audit.is_empty() {
        println!("  no changes recorded");
    } else {
        println!("{}", indent(&audit_table(&d.audit, true)));
    }
    Ok(())
}
