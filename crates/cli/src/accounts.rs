//! `users ...` and `plans ...`.

use anyhow::bail;
use closewise_core::accounts::AccountError;
use closewise_core::store::admin::UserFilter;
use closewise_core::store::{PlanRow, SessionRow, SubscriptionRow, UserRow};
use closewise_domain::signup::Confirmation;
use serde_json::{json, Value};

use crate::audit::{audit_json, audit_table};
use crate::ctx::Ctx;
use crate::opt::{PlanSet, UserChange, UserDelete, UserDestructive, UserShow, UsersList};
use crate::print::{self, fields, rfc3339, rfc3339_opt, table, when, when_opt};

pub async fn list(ctx: &Ctx, a: UsersList) -> anyhow::Result<()> {
    let filter = UserFilter {
        unverified: a.unverified,
        paid: a.paid,
        since: a.since.map(|d| d.midnight().assume_utc()),
    };
    let users = ctx.accounts.list(filter, a.limit).await?;
    if a.output.json {
        return print::json(&users);
    }
    if users.is_empty() {
        println!("No accounts.");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = users
        .iter()
        .map(|u| {
            vec![
                u.email.clone(),
                if u.email_confirmed_at.is_some() {
                    "yes"
                } else {
                    "no"
                }
                .into(),
                format!(
                    "{}{}",
                    u.plan_type.as_deref().unwrap_or("-"),
                    match u.plan_status.as_deref() {
                        Some("inactive") => " (inactive)",
                        _ => "",
                    }
                ),
                u.subscription_status.clone().unwrap_or_else(|| "-".into()),
                when(u.created_at),
                u.id.to_string(),
            ]
        })
        .collect();
    println!(
        "{}",
        table(
            &[
                "EMAIL",
                "VERIFIED",
                "PLAN",
                "SUBSCRIPTION",
                "SIGNED UP",
                "ID"
            ],
            &rows
        )
    );
    Ok(())
}

fn plan_json(plan: Option<&PlanRow>) -> Value {
    match plan {
        None => Value::Null,
        Some(p) => json!({
            "plan_type": p.plan_type,
            "status": p.status,
            "plan_started_at": rfc3339(p.plan_started_at),
            "plan_updated_at": rfc3339(p.plan_updated_at),
            "stripe_subscription_id": p.stripe_subscription_id,
            "stripe_customer_id": p.stripe_customer_id,
        }),
    }
}

pub fn subscription_json(sub: Option<&SubscriptionRow>) -> Value {
    match sub {
        None => Value::Null,
        Some(s) => json!({
            "subscription_id": s.subscription_id,
            "customer_id": s.customer_id,
            "price_id": s.price_id,
            "status": s.status,
            "cancel_at_period_end": s.cancel_at_period_end,
            "current_period_end": s.current_period_end,
            "payment_method_brand": s.payment_method_brand,
            "payment_method_last4": s.payment_method_last4,
            "updated_at": rfc3339(s.updated_at),
        }),
    }
}

fn session_json(s: &SessionRow) -> Value {
    json!({
        "id": s.id,
        "created_at": rfc3339(s.created_at),
        "refreshed_at": rfc3339(s.refreshed_at),
        "revoked_at": rfc3339_opt(s.revoked_at),
        "revoked_reason": s.revoked_reason,
        "user_agent": s.user_agent,
        "ip": s.ip,
    })
}

pub(crate) fn unix_date(secs: Option<i64>) -> String {
    secs.and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .map(when)
        .unwrap_or_else(|| "-".into())
}

fn plan_lines(plan: Option<&PlanRow>, sub: Option<&SubscriptionRow>) -> String {
    let mut out = String::from("Plan\n");
    out.push_str(&match plan {
        None => "  none yet (a free plan is created when the account first asks for it)".into(),
        Some(p) => fields(&[
            ("type", format!("{} ({})", p.plan_type, p.status)),
            ("since", when(p.plan_started_at)),
            (
                "from subscription",
                p.stripe_subscription_id
                    .clone()
                    .unwrap_or_else(|| "-".into()),
            ),
        ]),
    });
    out.push_str("\n\nSubscription\n");
    out.push_str(&match sub {
        None => "  none".into(),
        Some(s) => {
            let label = closewise_domain::subscription::period_label(s.cancel_at_period_end);
            fields(&[
                ("id", s.subscription_id.clone()),
                ("customer", s.customer_id.clone()),
                ("status", s.status.to_string()),
                (label.as_str(), unix_date(s.current_period_end)),
                (
                    "card",
                    match (&s.payment_method_brand, &s.payment_method_last4) {
                        (Some(b), Some(l)) => format!("{b} ending {l}"),
                        _ => "-".into(),
                    },
                ),
                ("price", s.price_id.clone().unwrap_or_else(|| "-".into())),
                ("last synced", when(s.updated_at)),
            ])
        }
    });
    // The question operators ask most: does the plan match what Stripe last said?
    if let (Some(p), Some(s)) = (plan, sub) {
        let expected = closewise_domain::subscription::plan_for_subscription(Some(s.status));
        if p.plan_type != expected {
            out.push_str(&format!(
                "\n  ! the plan is {} but the subscription is {}: run `closewise subscriptions sync` to repair",
                p.plan_type, s.status
            ));
        }
    }
    out
}

pub async fn show(ctx: &Ctx, a: UserShow) -> anyhow::Result<()> {
    let user = ctx.user(&a.email).await?;
    let explained = ctx.accounts.explain(&user).await?;
    let (plan, sub) = (explained.plan.plan, explained.plan.subscription);
    let (sessions, mails) = (explained.sessions, explained.mails);
    let (audit, events) = (explained.audit, explained.webhook_events);
    if a.output.json {
        let audit = audit_json(&audit);
        return print::json(&json!({
            "user": {
                "id": user.id,
                "email": user.email,
                "email_confirmed_at": rfc3339_opt(user.email_confirmed_at),
                "created_at": rfc3339(user.created_at),
            },
            "plan": plan_json(plan.as_ref()),
            "subscription": subscription_json(sub.as_ref()),
            "sessions": sessions.iter().map(session_json).collect::<Vec<_>>(),
            "mails": mails,
            "webhook_events": events.iter().map(crate::billing::webhook_event_json).collect::<Vec<_>>(),
            "audit": audit,
        }));
    }
    let active = sessions.iter().filter(|s| s.revoked_at.is_none()).count();
    println!("Account\n{}", account_fields(&user));
    println!("\n{}", plan_lines(plan.as_ref(), sub.as_ref()));
    println!("\nSessions ({active} active of {})", sessions.len());
    if !sessions.is_empty() {
        let rows: Vec<Vec<String>> = sessions
            .iter()
            .take(10)
            .map(|s| {
                vec![
                    when(s.created_at),
                    when(s.refreshed_at),
                    match (&s.revoked_at, &s.revoked_reason) {
                        (None, _) => "active".into(),
                        (Some(t), r) => {
                            format!("revoked {} ({})", when(*t), r.as_deref().unwrap_or("-"))
                        }
                    },
                    s.user_agent.clone().unwrap_or_else(|| "-".into()),
                ]
            })
            .collect();
        println!(
            "{}",
            indent(&table(&["STARTED", "LAST USED", "STATE", "CLIENT"], &rows))
        );
    }
    println!("\nLast mails");
    if mails.is_empty() {
        println!("  none");
    } else {
        let rows: Vec<Vec<String>> = mails
            .iter()
            .map(|m| {
                vec![
                    when(m.created_at),
                    m.kind.clone(),
                    crate::mail::state(m).into(),
                    m.id.to_string(),
                ]
            })
            .collect();
        println!(
            "{}",
            indent(&table(&["WRITTEN", "KIND", "STATE", "ID"], &rows))
        );
    }
    println!("\nRecent webhook events");
    if events.is_empty() {
        println!("  none");
    } else {
        let rows: Vec<Vec<String>> = events
            .iter()
            .map(|e| {
                vec![
                    when(e.received_at),
                    e.kind.clone(),
                    e.event_id.clone(),
                    match (e.processed_at, &e.error) {
                        (Some(t), _) => format!("processed {}", when(t)),
                        (None, Some(err)) => format!("failed: {err}"),
                        (None, None) => "not processed yet".into(),
                    },
                ]
            })
            .collect();
        println!(
            "{}",
            indent(&table(&["RECEIVED", "TYPE", "EVENT", "STATE"], &rows))
        );
    }
    println!("\nAudit trail");
    if audit.is_empty() {
        println!("  no operator changes");
    } else {
        println!("{}", indent(&audit_table(&audit, false)));
    }
    Ok(())
}

fn account_fields(user: &UserRow) -> String {
    fields(&[
        ("email", user.email.clone()),
        ("id", user.id.to_string()),
        ("signed up", when(user.created_at)),
        (
            "verified",
            match user.email_confirmed_at {
                Some(t) => format!("yes, {}", when(t)),
                None => "no (it cannot sign in until it confirms; `closewise users verify`)".into(),
            },
        ),
    ])
}

pub(crate) fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

pub async fn verify(ctx: &Ctx, a: UserChange) -> anyhow::Result<()> {
    let user = ctx.user(&a.email).await?;
    if user.email_confirmed_at.is_none() {
        ctx.confirm(a.confirm.yes, &format!("Mark {} as verified?", user.email))?;
    }
    // The verification link's rule, from the same core flow the API's link goes through.
    let operator = ctx.operator(&a.reason)?;
    if let Some(rule) = ctx.accounts.verify_by_operator(&operator, &user).await? {
        println!("{} is now verified.", user.email);
        if rule == Confirmation::ChoosePassword {
            println!(
                "It was signed up for more than once, so no sign-up's password is active: \
                 the user sets one with \"Forgot password?\" on the sign-in page."
            );
        }
    } else {
        println!(
            "{} was already verified ({}); nothing changed.",
            user.email,
            when_opt(user.email_confirmed_at)
        );
    }
    Ok(())
}

pub async fn sign_out(ctx: &Ctx, a: UserDestructive) -> anyhow::Result<()> {
    let user = ctx.user(&a.email).await?;
    ctx.confirm(
        a.confirm.yes,
        &format!("End every session of {}?", user.email),
    )?;
    let operator = ctx.operator(&a.reason)?;
    let n = ctx.accounts.sign_out_by_operator(&operator, &user).await?;
    println!("{} signed out: {n} session(s) ended.", user.email);
    Ok(())
}

pub async fn delete(ctx: &Ctx, a: UserDelete) -> anyhow::Result<()> {
    let user = ctx.user(&a.email).await?;
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Delete {} with its plan, sessions and subscription record? This cannot be undone.",
            user.email
        ),
    )?;
    // Nobody should keep paying for an account that no longer exists: the service cancels a
    // live subscription first (at the Stripe of `a.stripe`, which the root was built with) and
    // keeps the account when it cannot.
    let operator = ctx.operator(&a.reason)?;
    let deletion = match ctx.accounts.delete_by_operator(&operator, &user).await {
        Ok(d) => d,
        Err(AccountError::SubscriptionNotCancelled(e)) => bail!(
            "could not cancel the subscription at Stripe ({e}); the account was kept. \
             Try again, or cancel it in Stripe's dashboard first"
        ),
        Err(e) => return Err(e.into()),
    };
    if let Some(s) = &deletion.cancelled_subscription {
        println!("Subscription {s} canceled at Stripe.");
    }
    if deletion.deleted {
        println!("{} deleted.", user.email);
        Ok(())
    } else {
        bail!("{} was deleted by someone else meanwhile", user.email)
    }
}

pub async fn plan_show(ctx: &Ctx, a: UserShow) -> anyhow::Result<()> {
    let user = ctx.user(&a.email).await?;
    let view = ctx.accounts.plan_view(user.id).await?;
    let (plan, sub) = (view.plan, view.subscription);
    if a.output.json {
        return print::json(&json!({
            "email": user.email,
            "plan": plan_json(plan.as_ref()),
            "subscription": subscription_json(sub.as_ref()),
        }));
    }
    println!(
        "{}\n\n{}",
        user.email,
        plan_lines(plan.as_ref(), sub.as_ref())
    );
    Ok(())
}

pub async fn plan_set(ctx: &Ctx, a: PlanSet) -> anyhow::Result<()> {
    if a.reason.trim().is_empty() {
        return Err(crate::UsageError(
            "--reason must say why the plan changes (it goes into the audit trail)".into(),
        )
        .into());
    }
    let user = ctx.user(&a.email).await?;
    let before = ctx.accounts.plan_view(user.id).await?.plan;
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Set the plan of {} to {} (now {})?",
            user.email,
            a.plan.as_str(),
            before
                .as_ref()
                .map(|p| p.plan_type.as_str())
                .unwrap_or("none")
        ),
    )?;
    let reason = crate::opt::Reason {
        reason: Some(a.reason.clone()),
    };
    let operator = ctx.operator(&reason)?;
    let before = (ctx.accounts)
        .set_plan_by_operator(&operator, &user, a.plan.as_str())
        .await?;
    match before {
        Some(b) if b.as_str() == a.plan.as_str() => {
            println!("{} stays on {} (recorded).", user.email, b)
        }
        Some(b) => println!("{}: {b} -> {}.", user.email, a.plan.as_str()),
        None => println!("{}: {}.", user.email, a.plan.as_str()),
    }
    Ok(())
}
