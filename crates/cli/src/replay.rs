//! `webhooks replay EVENT_ID`: core's billing service fetches the event from Stripe again and
//! handles it as a delivery to the API's webhook; nothing here decides what an event means.

use anyhow::bail;
use closewise_core::billing::{ReplayError, StripeFailure};

use crate::ctx::Ctx;
use crate::opt::{StripeArgs, WebhookReplay};
use crate::print::when;

fn check_event_id(id: &str) -> anyhow::Result<()> {
    if !closewise_core::billing::is_stripe_id(id) {
        return Err(crate::UsageError(format!(
            "{id:?} is not a Stripe event id; copy it from `closewise webhooks list`"
        ))
        .into());
    }
    Ok(())
}

/// Why Stripe could not give the event, worded for the operator.
fn explain(e: ReplayError, a: &WebhookReplay) -> anyhow::Error {
    let id = &a.event_id;
    let StripeArgs {
        stripe_api_base, ..
    } = &a.stripe;
    match e {
        ReplayError::Stripe(StripeFailure::NotFound) => anyhow::anyhow!(
            "Stripe has no event {id} (events are kept 30 days); check the id and --stripe-api-base"
        ),
        ReplayError::Stripe(StripeFailure::Refused {
            status: 401 | 403, ..
        }) => anyhow::anyhow!("Stripe refused the key; check STRIPE_SECRET_KEY"),
        ReplayError::Stripe(StripeFailure::Refused { status, message }) => {
            anyhow::anyhow!("Stripe answered {status} ({message}); try again later")
        }
        ReplayError::Stripe(StripeFailure::Unavailable(e)) => anyhow::anyhow!(
            "cannot reach Stripe at {stripe_api_base} ({e}); check --stripe-api-base or try again later"
        ),
        ReplayError::Invalid => anyhow::anyhow!("Stripe's event {id} has no id or type"),
        ReplayError::Db(e) => e.into(),
    }
}

pub async fn replay(ctx: &Ctx, a: WebhookReplay) -> anyhow::Result<()> {
    check_event_id(&a.event_id)?;
    if let Some(row) = ctx.billing.webhook_event(&a.event_id).await? {
        if let Some(at) = row.processed_at {
            println!(
                "Event {} ({}) was processed {}; a replay would change nothing.",
                row.event_id,
                row.kind,
                when(at)
            );
            return Ok(());
        }
    }
    ctx.confirm(
        a.confirm.yes,
        &format!("Fetch Stripe event {} and process it again?", a.event_id),
    )?;
    // The root's billing talks to the Stripe of `a.stripe`.
    let operator = ctx.operator(&a.reason)?;
    let replayed = (ctx.billing)
        .replay_event(&operator, &a.event_id)
        .await
        .map_err(|e| explain(e, &a))?;
    let kind = &replayed.kind;
    if replayed.processed {
        println!(
            "Event {} ({kind}) processed{}.",
            a.event_id,
            (replayed.user_email.as_ref())
                .map(|u| format!(" for {u}"))
                .unwrap_or_default()
        );
        Ok(())
    } else {
        bail!(
            "event {} ({kind}) could not be processed: {}; run the replay again once that is fixed",
            a.event_id,
            (replayed.error.clone()).unwrap_or_else(|| "the billing service refused it".into())
        )
    }
}
