//! `webhooks replay EVENT_ID`: the event is fetched from Stripe again (so it needs no signature)
//! and handed to the billing service that handles deliveries to the API's webhook: idempotency
//! by event id, the subject read back from Stripe and fulfilled. Nothing here decides what an
//! event means.

use anyhow::{bail, Context};
use closewise_core::billing::{Billing, EventError};
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

async fn fetch_event(a: &StripeArgs, id: &str) -> anyhow::Result<Value> {
    let url = format!("{}/v1/events/{id}", a.stripe_api_base.trim_end_matches('/'));
    let res = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(
            a.stripe_timeout_secs.clamp(1, 10),
        ))
        .build()?
        .get(&url)
        .bearer_auth(&a.stripe_secret_key)
        .send()
        .await
        .with_context(|| {
            format!(
                "cannot reach Stripe at {}; check --stripe-api-base",
                a.stripe_api_base
            )
        })?;
    match res.status().as_u16() {
        200 => Ok(res
            .json()
            .await
            .context("Stripe answered something that is not an event")?),
        404 => bail!(
            "Stripe has no event {id} (events are kept 30 days); check the id and --stripe-api-base"
        ),
        401 | 403 => bail!("Stripe refused the key; check STRIPE_SECRET_KEY"),
        s => bail!("Stripe answered {s}; try again later"),
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
    let event = fetch_event(&a.stripe, &a.event_id).await?;
    let kind = event["type"].as_str().unwrap_or("unknown").to_owned();
    let billing = Billing::new(
        ctx.store.clone(),
        crate::billing::client(&a.stripe)?,
        Clock::System,
    );
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
