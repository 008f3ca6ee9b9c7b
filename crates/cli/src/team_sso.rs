//! `closewise teams sso show|disable TEAM`: a team's single sign-on as an operator sees it
//! (never its client secret), and turning it off — asked first, audited with the operator and
//! the reason — through `closewise_core::sso::SsoAdmin`.

use closewise_core::sso::SsoAdmin;

use crate::ctx::Ctx;
use crate::opt::teams::{TeamShow, TeamSsoDisable};
use crate::print::{json, table, when_opt};
use crate::team_changes::reason;
use crate::teams::service;

/// The root's (the redirect URI shown is the API's public URL's when this shell knows it).
fn admin(ctx: &Ctx) -> &SsoAdmin {
    &ctx.sso_admin
}

pub async fn show(ctx: &Ctx, a: TeamShow) -> anyhow::Result<()> {
    let team = service(ctx).find(&a.team).await?.team;
    let view = admin(ctx).show(&team).await?;
    if a.output.json {
        return json(&view);
    }
    let or_dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    let rows = vec![
        vec!["team".into(), format!("{} ({})", view.team, view.team_id)],
        vec!["configured".into(), view.configured.to_string()],
        vec!["issuer".into(), or_dash(&view.issuer)],
        vec!["client id".into(), or_dash(&view.client_id)],
        vec!["e-mail claim".into(), view.email_claim.clone()],
        vec!["required".into(), view.required.to_string()],
        vec!["redirect URI".into(), view.redirect_uri.clone()],
        vec!["verified domains".into(), view.verified_domains.join(", ")],
        vec!["updated".into(), when_opt(view.updated_at)],
    ];
    print!("{}", table(&["", ""], &rows));
    Ok(())
}

pub async fn disable(ctx: &Ctx, a: TeamSsoDisable) -> anyhow::Result<()> {
    let why = reason(&a.reason, "single sign-on is turned off")?;
    let operator = ctx.operator_because(why)?;
    let team = service(ctx).find(&a.team).await?.team;
    let sso = admin(ctx);
    let view = sso.show(&team).await?;
    if !view.configured {
        anyhow::bail!("{} has no single sign-on; nothing changed", team.name);
    }
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Turn off single sign-on of {} ({}) with {}? Its members sign in with passwords again.",
            team.name,
            team.id,
            view.issuer.as_deref().unwrap_or("-"),
        ),
    )?;
    sso.disable(&operator, &team).await?;
    println!("Single sign-on of {} is off.", team.name);
    Ok(())
}
