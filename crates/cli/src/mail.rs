//! `mail ...`: the outbox.

use anyhow::bail;
use closewise_core::store::audit::NewAudit;
use closewise_core::store::mail::MailFilter;
use closewise_core::store::MailRow;
use serde_json::json;

use crate::ctx::Ctx;
use crate::opt::{MailList, MailRetry, MailShow};
use crate::print::{self, fields, table, when, when_opt};

pub fn state(m: &MailRow) -> &'static str {
    if m.sent_at.is_some() {
        "sent"
    } else if m.failed_at.is_some() {
        "failed"
    } else {
        "pending"
    }
}

pub async fn list(ctx: &Ctx, a: MailList) -> anyhow::Result<()> {
    let filter = if a.pending {
        MailFilter::Pending
    } else if a.failed {
        MailFilter::Failed
    } else {
        MailFilter::All
    };
    let to = a.to.map(|t| t.trim().to_lowercase());
    let mails = ctx.store.list_mail(to.as_deref(), filter, a.limit).await?;
    if a.output.json {
        return print::json(&mails);
    }
    if mails.is_empty() {
        println!("No mail.");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = mails
        .iter()
        .map(|m| {
            vec![
                m.id.to_string(),
                m.to_email.clone(),
                m.kind.clone(),
                state(m).into(),
                when(m.created_at),
                m.subject.clone(),
            ]
        })
        .collect();
    println!(
        "{}",
        table(&["ID", "TO", "KIND", "STATE", "WRITTEN", "SUBJECT"], &rows)
    );
    Ok(())
}

async fn get(ctx: &Ctx, id: uuid::Uuid) -> anyhow::Result<MailRow> {
    match ctx.store.get_mail(id).await? {
        Some(m) => Ok(m),
        None => bail!("no mail with id {id}; find it with `closewise mail list`"),
    }
}

pub async fn show(ctx: &Ctx, a: MailShow) -> anyhow::Result<()> {
    let m = get(ctx, a.id).await?;
    // The text holds live links (verification, password reset): reading it is recorded first,
    // and nothing is printed when it cannot be.
    let user = ctx.store.user_by_email(&m.to_email).await?;
    ctx.store
        .record_audit(&NewAudit {
            actor: ctx.actor()?,
            action: "mail.show",
            user_id: user.map(|u| u.id),
            target_email: Some(m.to_email.clone()),
            reason: a.reason.reason.clone(),
            details: json!({ "mail_id": m.id, "kind": m.kind }),
            now: ctx.now(),
        })
        .await?;
    if a.output.json {
        return print::json(&m);
    }
    println!(
        "{}",
        fields(&[
            ("id", m.id.to_string()),
            ("to", m.to_email.clone()),
            ("kind", m.kind.clone()),
            ("subject", m.subject.clone()),
            ("state", state(&m).into()),
            ("written", when(m.created_at)),
            ("attempts", m.attempts.to_string()),
            ("sent", when_opt(m.sent_at)),
            ("failed", when_opt(m.failed_at)),
            (
                "last error",
                m.last_error.clone().unwrap_or_else(|| "-".into())
            ),
            ("link", m.link.clone().unwrap_or_else(|| "-".into())),
        ])
    );
    println!("\n{}", m.text_body);
    Ok(())
}

pub async fn retry(ctx: &Ctx, a: MailRetry) -> anyhow::Result<()> {
    let m = get(ctx, a.id).await?;
    if m.sent_at.is_some() {
        bail!(
            "mail {} was already delivered ({}); nothing to retry",
            m.id,
            when_opt(m.sent_at)
        );
    }
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Queue mail {} to {} ({}) again?",
            m.id,
            m.to_email,
            state(&m)
        ),
    )?;
    let user = ctx.store.user_by_email(&m.to_email).await?;
    let audit = NewAudit {
        actor: ctx.actor()?,
        action: "mail.retry",
        user_id: user.map(|u| u.id),
        target_email: Some(m.to_email.clone()),
        reason: a.reason.reason.clone(),
        details: json!({
            "mail_id": m.id,
            "kind": m.kind,
            "state": state(&m),
            "attempts": m.attempts,
            "last_error": m.last_error,
        }),
        now: ctx.now(),
    };
    if ctx.store.retry_mail_audited(m.id, &audit).await? {
        println!(
            "Mail {} to {} is queued again; the API's mail worker sends it.",
            m.id, m.to_email
        );
        Ok(())
    } else {
        bail!("mail {} was delivered meanwhile; nothing to retry", m.id)
    }
}
