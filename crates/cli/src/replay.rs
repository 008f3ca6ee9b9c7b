//! `webhooks replay EVENT_ID`: the event is fetched from Stripe again, signed as Stripe would sign
//! it, and handed to the API's own webhook handler in-process. So a replay goes through exactly
//! the path a delivery takes: signature check, idempotency by event id, the subject read back from
//! Stripe and fulfilled. Nothing here decides what an event means.

use anyhow::{bail, Context};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue};
use closewise_api::auth::jwt::Keys;
use closewise_api::auth::password::Hasher;
use closewise_api::billing::signature;
use closewise_api::clock::Clock;
use closewise_api::config::Settings;
use closewise_api::state::AppState;
use closewise_api::store::audit::NewAudit;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::ctx::Ctx;
use crate::opt::{StripeArgs, WebhookReplay};
use crate::print::when;

/// Signs our own hand-over; it never leaves the process.
const REPLAY_SECRET: &str = "whsec_closewise_cli_replay";

async fn fetch_event(a: &StripeArgs, id: &str) -> anyhow::Result<Value> {
    if !closewise_api::billing::is_stripe_id(id) {
        return Err(crate::UsageError(format!(
            "{id:?} is not a Stripe event id; copy it from `closewise webhooks list`"
        ))
        .into());
    }
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

/// The API's state on our store, talking to the same Stripe.
fn app_state(ctx: &Ctx, a: &StripeArgs, database_url: &str) -> anyhow::Result<AppState> {
    let timeout = a.stripe_timeout_secs.to_string();
    let settings = Settings::from_lookup(|k| match k {
        "DATABASE_URL" => Some(database_url.to_owned()),
        "STRIPE_API_BASE" => Some(a.stripe_api_base.clone()),
        "STRIPE_SECRET_KEY" => Some(a.stripe_secret_key.clone()),
        "STRIPE_WEBHOOK_SECRET" => Some(REPLAY_SECRET.to_owned()),
        "STRIPE_TIMEOUT_SECS" => Some(timeout.clone()),
        _ => None,
    })?;
    let stripe = closewise_api::billing::StripeClient::new(&settings.stripe)?;
    let keys = Keys::generate(&settings.base_url)?;
    Ok(AppState::new(
        settings,
        ctx.store.clone(),
        keys,
        Hasher::new(),
        Clock::System,
        stripe,
    ))
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

pub async fn replay(ctx: &Ctx, a: WebhookReplay, database_url: &str) -> anyhow::Result<()> {
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
    let event = fetch_event(&a.stripe, &a.event_id).await?;
    let kind = event["type"].as_str().unwrap_or("unknown").to_owned();
    let state = app_state(ctx, &a.stripe, database_url)?;
    let body = serde_json::to_vec(&event)?;
    let mut headers = HeaderMap::new();
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    headers.insert(
        "stripe-signature",
        HeaderValue::from_str(&signature::sign(REPLAY_SECRET, now, &body))?,
    );
    let answer =
        closewise_api::billing::webhook::webhook(State(state), headers, Bytes::from(body)).await;
    let row = ctx.store.webhook_event(&a.event_id).await?;
    let processed = answer.is_ok() && row.as_ref().is_some_and(|r| r.processed_at.is_some());
    let error = row.as_ref().and_then(|r| r.error.clone());
    let user = user_of(ctx, &event).await?;
    ctx.store
        .record_audit(&NewAudit {
            actor: ctx.actor.clone(),
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
            error.unwrap_or_else(|| "the webhook handler refused it".into())
        )
    }
}
