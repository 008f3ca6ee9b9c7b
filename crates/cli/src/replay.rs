//! `webhooks replay EVENT_ID`: the event is fetched from Stripe again (so it needs no signature)
//! and handed to the billing service that handles deliveries to the API's webhook: idempotency
//! by event id, the subject read back from Stripe and fulfilled. Nothing here decides what an
//! event means.

use anyhow::bail;
use closewise_core::billing::{Billing, EventError, StripeClient, StripeFailure};
use closewise_core::clock::Clock;
use closewise_core::store::audit::NewAudit;
use serde_json::{json, Value};
use uuid::Uuid;

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

/// The event as Stripe keeps it, read through core's client.
async fn fetch_event(stripe: &StripeClient, a: &StripeArgs, id: &str) -> anyhow::Result<Value> {
    match stripe.event(id).await {
        Ok(event) => Ok(event),
        Err(StripeFailure::NotFound) => bail!(
            "Stripe has no event {id} (events are kept 30 days); check the id and --stripe-api-base"
        ),
        Err(StripeFailure::Refused {
            status: 401 | 403, ..
        }) => bail!("Stripe refused the key; check STRIPE_SECRET_KEY"),
        Err(StripeFailure::Refused { status, message }) => {
            bail!("Stripe answered {status} ({message}); try again later")
        }
        Err(StripeFailure::Unavailable(e)) => bail!(
            "cannot reach Stripe at {} ({e}); check --stripe-api-base or try again later",
            a.stripe_api_base
        ),
    }
}

/// The account an event is about, when we can tell: by its Stripe customer, else by the user id
/// our checkout sessions carry.
async fn user_of(ctx: &Ctx, event: &Value) -> anyhow::Result<Option<(Uuid, String)>> {
    let object = &event["data"]["object"];
    let customer = object["customer"]
        .as_str()
        .or_else(|| object["customer"]["id"].as_str());
    let mut id = match customer {
        Some(c) => ctx.store.user_of_customer(c).await?,
        None => None,
    };
    if id.is_none() {
        id = object["metadata"]["user_id"]
            .as_str()
            .and_then(|s| s.parse().ok());
    }
    Ok(match id {
        Some(id) => ctx.store.user_by_id(id).await?.map(|u| (u.id, u.email)),
        None => None,
    })
}

pub async fn replay(ctx: &Ctx, a: WebhookReplay) -> anyhow::Result<()> {
    check_event_id(&a.event_id)?;
    if let Some(row) = ctx.store.webhook_event(&a.event_id).await? {
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
    let actor = ctx.actor()?;
    let stripe = crate::billing::client(&a.stripe)?;
    let event = fetch_event(&stripe, &a.stripe, &a.event_id).await?;
    let kind = event["type"].as_str().unwrap_or("unknown").to_owned();
    let billing = Billing::new(ctx.store.clone(), stripe, Clock::System);
    let answer = match billing.handle_event(&event).await {
        Err(EventError::Invalid) => bail!("Stripe's event {} has no id or type", a.event_id),
        other => other,
    };
    let row = ctx.store.webhook_event(&a.event_id).await?;
    let processed = answer.is_ok() && row.as_ref().is_some_and(|r| r.processed_at.is_some());
    let error = row.as_ref().and_then(|r| r.error.clone());
    let user = user_of(ctx, &event).await?;
    ctx.store
        .record_audit(&NewAudit {
            actor,
            action: "webhook.replay",
            user_id: user.as_ref().map(|u| u.0),
            target_email: user.as_ref().map(|u| u.1.clone()),
            reason: a.reason.reason.clone(),
            details: json!({
                "event_id": a.event_id,
                "type": kind,
                "processed": processed,
                "error": error,
            }),
            now: ctx.now(),
        })
        .await?;
    if processed {
        println!(
            "Event {} ({kind}) processed{}.",
            a.event_id,
            user.map(|u| format!(" for {}", u.1)).unwrap_or_default()
        );
        Ok(())
    } else {
        bail!(
            "event {} ({kind}) could not be processed: {}; run the replay again once that is fixed",
            a.event_id,
            error.unwrap_or_else(|| "the billing service refused it".into())
        )
    }
}
