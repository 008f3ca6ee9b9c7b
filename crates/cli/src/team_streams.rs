//! `teams streams list` and `teams streams deliveries`: an operator's view of a team's event
//! streams (never a signing secret or token) and of one stream's last deliveries, through
//! `closewise_core::streams`.

use serde_json::{json, Value};
use uuid::Uuid;

use crate::ctx::Ctx;
use crate::opt::teams::{TeamShow, TeamStreamDeliveries};
use crate::print::{self, table, when, when_opt};
use crate::teams::service;
use crate::UsageError;

pub async fn list(ctx: &Ctx, a: TeamShow) -> anyhow::Result<()> {
    let team = service(ctx).find(&a.team).await?.team;
    let streams = ctx.streams.operator_view(team.id).await?;
    if a.output.json {
        let streams: Vec<Value> = streams
            .iter()
            .map(|s| {
                json!({
                    "id": s.id,
                    "kind": s.kind,
                    "url": s.url,
                    "events": s.events,
                    "status": s.status,
                    "pending": s.pending,
                    "failures": s.failures,
                    "next_attempt_at": s.next_attempt_at.map(when),
                    "paused_at": s.paused_at.map(when),
                    "created_at": when(s.created_at),
                })
            })
            .collect();
        return print::json(&json!({ "team_id": team.id, "team": team.name, "streams": streams }));
    }
    println!("Event streams of {} ({})", team.name, team.id);
    if streams.is_empty() {
        println!("None.");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = streams
        .iter()
        .map(|s| {
            vec![
                s.id.to_string(),
                s.kind.clone(),
                s.url.clone(),
                s.status.to_owned(),
                s.pending.to_string(),
                when_opt(s.next_attempt_at),
                s.events.join(","),
            ]
        })
        .collect();
    println!(
        "\n{}",
        table(
            &[
                "STREAM ID",
                "KIND",
                "URL",
                "STATUS",
                "PENDING",
                "NEXT ATTEMPT",
                "EVENTS"
            ],
            &rows
        )
    );
    Ok(())
}

pub async fn deliveries(ctx: &Ctx, a: TeamStreamDeliveries) -> anyhow::Result<()> {
    let stream = Uuid::try_parse(a.stream.trim())
        .map_err(|_| UsageError(format!("{} is not a stream id", a.stream)))?;
    let team = service(ctx).find(&a.team).await?.team;
    let deliveries = ctx.streams.operator_deliveries(team.id, stream).await?;
    if a.output.json {
        let deliveries: Vec<Value> = deliveries
            .iter()
            .map(|d| {
                json!({
                    "id": d.id,
                    "attempted_at": when(d.attempted_at),
                    "status": d.status,
                    "events": d.events,
                    "latency_ms": d.latency_ms,
                    "response_code": d.response_code,
                    "error": d.error,
                    "next_retry_at": d.next_retry_at.map(when),
                })
            })
            .collect();
        return print::json(&json!({ "stream_id": stream, "deliveries": deliveries }));
    }
    println!(
        "Deliveries of stream {stream} of {}, newest first",
        team.name
    );
    let rows: Vec<Vec<String>> = deliveries
        .iter()
        .map(|d| {
            vec![
                when(d.attempted_at),
                d.status.clone(),
                d.events.to_string(),
                format!("{} ms", d.latency_ms),
                d.response_code
                    .map_or_else(|| "-".into(), |c| c.to_string()),
                when_opt(d.next_retry_at),
                d.error.clone().unwrap_or_default(),
            ]
        })
        .collect();
    println!(
        "\n{}",
        table(
            &[
                "ATTEMPTED",
                "STATUS",
                "EVENTS",
                "LATENCY",
                "RESPONSE",
                "NEXT RETRY",
                "ERROR"
            ],
            &rows
        )
    );
    Ok(())
}
