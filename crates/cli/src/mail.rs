//! `mail ...`: the outbox.

use closewise_core::mail::outbox::OutboxError;
use closewise_core::store::mail::MailFilter;

pub use closewise_core::mail::outbox::state;

use crate::ctx::Ctx;
use crate::opt::{MailList, MailRetry, MailShow};
use crate::print::{self, fields, table, when, when_opt};

pub async fn list(ctx: &Ctx, a: MailList) -> anyhow::Result<()> {
    let filter = if a.pending {
        MailFilter::Pending
    } else if a.failed {
        MailFilter::Failed
    } else {
        MailFilter::All
    };
    let to = a.to.map(|t| t.trim().to_lowercase());
    let mails = ctx.outbox.list(to.as_deref(), filter, a.limit).await?;
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

/// The outbox's refusals, worded for the operator.
fn explain(e: OutboxError) -> anyhow::Error {
    match e {
        OutboxError::NotFound(id) => {
            anyhow::anyhow!("no mail with id {id}; find it with `closewise mail list`")
        }
        OutboxError::AlreadySent(id, at) => anyhow::anyhow!(
            "mail {id} was already delivered ({}); nothing to retry",
            when(at)
        ),
        OutboxError::SentMeanwhile(id) => {
            anyhow::anyhow!("mail {id} was delivered meanwhile; nothing to retry")
        }
        OutboxError::Db(e) => e.into(),
    }
}

pub async fn show(ctx: &Ctx, a: MailShow) -> anyhow::Result<()> {
    // The text holds live links (verification, password reset): the outbox records the read
    // first, and nothing is printed when it cannot.
    let operator = ctx.operator(&a.reason)?;
    let m = ctx.outbox.read(&operator, a.id).await.map_err(explain)?;
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
    let m = ctx.outbox.get(a.id).await.map_err(explain)?;
    if let Some(at) = m.sent_at {
        return Err(explain(OutboxError::AlreadySent(m.id, at)));
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
    let operator = ctx.operator(&a.reason)?;
    let m = ctx.outbox.retry(&operator, m.id).await.map_err(explain)?;
    println!(
        "Mail {} to {} is queued again; the API's mail worker sends it.",
        m.id, m.to_email
    );
    Ok(())
}
