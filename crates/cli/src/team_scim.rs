//! `teams scim show` and `teams scim disable`: an operator's view of a team's SCIM provisioning
//! (its tokens, never their secret) and turning it off (every live token revoked, asked first and
//! audited with the operator and the reason), through `closewise_core::scim`.

use closewise_core::scim::Scim;
use serde_json::{json, Value};

use crate::ctx::Ctx;
use crate::opt::teams::{TeamScimDisable, TeamShow};
use crate::print::{self, fields, table, when, when_opt};
use crate::teams::service;
use crate::UsageError;

fn scim(ctx: &Ctx) -> &Scim {
    &ctx.scim
}

pub async fn show(ctx: &Ctx, a: TeamShow) -> anyhow::Result<()> {
    let team = service(ctx).find(&a.team).await?.team;
    let (tokens, users) = scim(ctx).operator_view(team.id).await?;
    let live = tokens.iter().filter(|t| t.revoked_at.is_none()).count();
    if a.output.json {
        let tokens: Vec<Value> = tokens
            .iter()
            .map(|t| {
                json!({
                    "id": t.id,
                    "created_by": t.created_by,
                    "created_at": when(t.created_at),
                    "last_used_at": t.last_used_at.map(when),
                    "revoked_at": t.revoked_at.map(when),
                })
            })
            .collect();
        return print::json(&json!({
            "team_id": team.id,
            "team": team.name,
            "enabled": live > 0,
            "users": users,
            "tokens": tokens,
        }));
    }
    println!(
        "SCIM of {}\n{}",
        team.name,
        fields(&[
            ("team id", team.id.to_string()),
            (
                "enabled",
                if live > 0 {
                    "yes".into()
                } else {
                    "no (no live token)".into()
                }
            ),
            ("live tokens", live.to_string()),
            ("provisioned users", users.to_string()),
        ])
    );
    if !tokens.is_empty() {
        let rows: Vec<Vec<String>> = tokens
            .iter()
            .map(|t| {
                vec![
                    t.id.to_string(),
                    when(t.created_at),
                    when_opt(t.last_used_at),
                    when_opt(t.revoked_at),
                ]
            })
            .collect();
        println!(
            "\n{}",
            table(&["TOKEN ID", "CREATED", "LAST USED", "REVOKED"], &rows)
        );
    }
    Ok(())
}

pub async fn disable(ctx: &Ctx, a: TeamScimDisable) -> anyhow::Result<()> {
    let reason = a.reason.reason.trim();
    if reason.is_empty() {
        return Err(UsageError(
            "--reason must say why SCIM is turned off (it goes into the audit trail)".into(),
        )
        .into());
    }
    let team = service(ctx).find(&a.team).await?.team;
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Revoke every SCIM token of {} ({})? Its identity provider's next request is refused.",
            team.name, team.id
        ),
    )?;
    let operator = ctx.operator_because(reason)?;
    let revoked = scim(ctx).disable(&operator, Some(team.id)).await?;
    println!("SCIM is off for {}: {revoked} token(s) revoked.", team.name);
    Ok(())
}
