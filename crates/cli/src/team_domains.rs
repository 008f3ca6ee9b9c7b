//! `teams domains show` and `teams domains disable`: a team's verified domains as an operator
//! sees them, through the commands of `closewise_core::verified_domains` with the operator as
//! actor (no DNS look-up: disabling un-verifies, asked first and audited with the reason).

use closewise_core::verified_domains::{VerifiedDomainView, VerifiedDomains};
use serde_json::{json, Value};

use crate::ctx::Ctx;
use crate::opt::teams::{TeamDomainDisable, TeamShow};
use crate::print::{self, rfc3339, rfc3339_opt, table, when, when_opt};
use crate::teams::service;
use crate::UsageError;

fn domains(ctx: &Ctx) -> &VerifiedDomains {
    &ctx.verified_domains
}

fn domain_json(d: &VerifiedDomainView) -> Value {
    json!({
        "id": d.id,
        "domain": d.domain,
        "status": d.status,
        "txt_name": d.txt_name,
        "txt_value": d.txt_value,
        "created_at": rfc3339(d.created_at),
        "verified_at": rfc3339_opt(d.verified_at),
        "last_checked_at": rfc3339_opt(d.last_checked_at),
        "last_seen_at": rfc3339_opt(d.last_seen_at),
    })
}

pub async fn show(ctx: &Ctx, a: TeamShow) -> anyhow::Result<()> {
    let team = service(ctx).find(&a.team).await?.team;
    let operator = ctx.reader();
    let list = domains(ctx).list(&operator, Some(team.id)).await?;
    if a.output.json {
        return print::json(&json!({
            "team": { "id": team.id, "name": team.name },
            "domains": list.iter().map(domain_json).collect::<Vec<_>>(),
        }));
    }
    if list.is_empty() {
        println!("{} ({}) has no domains.", team.name, team.id);
        return Ok(());
    }
    let rows: Vec<Vec<String>> = list
        .iter()
        .map(|d| {
            vec![
                d.domain.clone(),
                d.status.clone(),
                when_opt(d.verified_at),
                when_opt(d.last_seen_at),
                when(d.created_at),
                format!("{} TXT {}", d.txt_name, d.txt_value),
            ]
        })
        .collect();
    println!("{} ({})", team.name, team.id);
    println!(
        "{}",
        table(
            &[
                "DOMAIN",
                "STATUS",
                "VERIFIED",
                "LAST SEEN",
                "ADDED",
                "RECORD"
            ],
            &rows
        )
    );
    Ok(())
}

pub async fn disable(ctx: &Ctx, a: TeamDomainDisable) -> anyhow::Result<()> {
    let reason = a.reason.reason.trim().to_owned();
    if reason.is_empty() {
        return Err(UsageError(
            "--reason must say why the domain is disabled (it goes into the audit trail)".into(),
        )
        .into());
    }
    let team = service(ctx).find(&a.team).await?.team;
    let operator = ctx.operator_because(reason)?;
    let service = domains(ctx);
    let wanted = a.domain.trim().trim_end_matches('.').to_ascii_lowercase();
    let known = service.list(&operator, Some(team.id)).await?;
    let Some(found) = known.iter().find(|d| d.domain == wanted) else {
        anyhow::bail!(
            "{} ({}) has no domain {wanted:?}; see its domains with `closewise teams domains show TEAM`",
            team.name,
            team.id
        );
    };
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Disable the verified domain {} of {} ({})? It becomes pending, domain join at it ends, and the owner must verify it again.",
            found.domain, team.name, team.id
        ),
    )?;
    let d = service.disable(&operator, Some(team.id), &wanted).await?;
    println!(
        "{} of {} is {} now; domain join at it is off.",
        d.domain, team.name, d.status
    );
    Ok(())
}
