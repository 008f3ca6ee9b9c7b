//! `teams setup-links list` and `teams setup-links revoke`: an operator's view of a team's setup
//! links for IT (never the link itself) and revoking one (asked first, audited with the operator
//! and the reason), through `closewise_core::setup_links`.

use closewise_core::setup_links::SetupLinkView;
use serde_json::json;

use crate::ctx::Ctx;
use crate::opt::teams::{TeamSetupLinkRevoke, TeamShow};
use crate::print::{self, table, when, when_opt};
use crate::teams::service;
use crate::UsageError;

fn steps(s: &[closewise_domain::setup_links::SetupStep]) -> String {
    let words: Vec<&str> = s.iter().map(|x| x.as_str()).collect();
    if words.is_empty() {
        "-".into()
    } else {
        words.join(",")
    }
}

pub async fn list(ctx: &Ctx, a: TeamShow) -> anyhow::Result<()> {
    let team = service(ctx).find(&a.team).await?.team;
    let links: Vec<SetupLinkView> = ctx.setup_links.list(&ctx.reader(), Some(team.id)).await?;
    if a.output.json {
        return print::json(&json!({ "team_id": team.id, "team": team.name, "links": links }));
    }
    println!("Setup links of {} ({})", team.name, team.id);
    if links.is_empty() {
        println!("none");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = links
        .iter()
        .map(|l| {
            vec![
                l.id.to_string(),
                steps(&l.steps),
                l.state.as_str().to_string(),
                steps(&l.done),
                l.created_by.clone(),
                when(l.created_at),
                when(l.expires_at),
                when_opt(l.finished_at.or(l.revoked_at)),
            ]
        })
        .collect();
    println!(
        "{}",
        table(
            &["LINK ID", "STEPS", "STATE", "DONE", "MADE BY", "CREATED", "EXPIRES", "ENDED"],
            &rows
        )
    );
    Ok(())
}

pub async fn revoke(ctx: &Ctx, a: TeamSetupLinkRevoke) -> anyhow::Result<()> {
    let reason = a.reason.reason.trim();
    if reason.is_empty() {
        return Err(UsageError(
            "--reason must say why the link is revoked (it goes into the audit trail)".into(),
        )
        .into());
    }
    let id = uuid::Uuid::parse_str(a.id.trim())
        .map_err(|_| UsageError(format!("{} is not a setup link's id", a.id)))?;
    let team = service(ctx).find(&a.team).await?.team;
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Revoke the setup link {id} of {} ({})? Its page answers 410 from now on.",
            team.name, team.id
        ),
    )?;
    let operator = ctx.operator_because(reason)?;
    ctx.setup_links.revoke(&operator, Some(team.id), id).await?;
    println!("The setup link {id} of {} is revoked.", team.name);
    Ok(())
}
