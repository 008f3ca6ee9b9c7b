//! `teams remove-member`, `teams transfer`, `teams seats set`: an operator's changes to a team,
//! each asked first, then made by the teams service's command with `Actor::Operator` (the name
//! from `--actor`, the reason from `--reason`), which applies the rules that hold whoever acts
//! (the owner stays until the team is transferred, seats never below members plus pending
//! invites) and writes the audit row with the change.

use closewise_core::actor::Actor;
use closewise_core::store::teams::TeamRow;
use closewise_core::teams::admin::{seats_route, SeatsRoute, TeamsAdminError};
use closewise_core::teams::billing::TeamBillingError;
use closewise_core::teams::{SeatsView, Teams, TeamsError};

use crate::ctx::Ctx;
use crate::opt::teams::{TeamMemberChange, TeamReason, TeamSeatsSet};
use crate::teams::service;
use crate::UsageError;

/// The reason, trimmed; an empty one is a usage error.
pub(crate) fn reason(r: &TeamReason, what: &str) -> anyhow::Result<String> {
    let reason = r.reason.trim();
    if reason.is_empty() {
        return Err(UsageError(format!(
            "--reason must say why {what} (it goes into the audit trail)"
        ))
        .into());
    }
    Ok(reason.to_owned())
}

/// The operator making a change, with why.
fn operator(ctx: &Ctx, reason: String) -> anyhow::Result<Actor> {
    ctx.operator_because(reason)
}

/// A command's refusal once the operator was asked: what it checked first changed meanwhile.
fn changed(team: &TeamRow) -> impl FnOnce(TeamsError) -> anyhow::Error + '_ {
    move |e| match e {
        TeamsError::Database(e) => anyhow::Error::from(e),
        _ => explain(TeamsAdminError::Changed(team.name.clone())),
    }
}

/// The core's refusal, with what to do next where there is something to do.
fn explain(e: TeamsAdminError) -> anyhow::Error {
    let hint = match &e {
        TeamsAdminError::TeamNotFound(_) => "; find it with `closewise teams list`",
        TeamsAdminError::AmbiguousName { .. } => "",
        TeamsAdminError::OwnerCannotBeRemoved { .. } => {
            " (`closewise teams transfer TEAM NEW_OWNER`), then remove them"
        }
        TeamsAdminError::NotAMember { .. } => "; see its members with `closewise teams show TEAM`",
        _ => "",
    };
    anyhow::anyhow!("{e}{hint}")
}

fn seats_now(s: SeatsView) -> String {
    format!("{} used of {}, {} free", s.used, s.total, s.free)
}

pub async fn remove_member(ctx: &Ctx, a: TeamMemberChange) -> anyhow::Result<()> {
    let reason = reason(&a.reason, "the member is removed")?;
    let admin = service(ctx);
    let team = admin.find(&a.team).await.map_err(explain)?.team;
    let user = ctx.user_by_email_or_id(&a.user).await?;
    let role = admin.check_removal(&team, &user).await.map_err(explain)?;
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Remove {} ({}) from {} ({})? Their seat frees, they lose the team's plan and every \
             session of theirs ends (the desktop app's included).",
            user.email,
            role.as_str(),
            team.name,
            team.id
        ),
    )?;
    admin
        .remove_member(&operator(ctx, reason)?, Some(team.id), user.id)
        .await
        .map_err(changed(&team))?;
    let seats = seats_after(&admin, &team).await?;
    println!(
        "{} removed from {} ({} seats now); every session of theirs ended.",
        user.email,
        team.name,
        seats_now(seats)
    );
    Ok(())
}

pub async fn transfer(ctx: &Ctx, a: TeamMemberChange) -> anyhow::Result<()> {
    let reason = reason(&a.reason, "the team changes hands")?;
    let admin = service(ctx);
    let found = admin.find(&a.team).await.map_err(explain)?;
    let user = ctx.user_by_email_or_id(&a.user).await?;
    let role = admin
        .check_transfer(&found.team, &user)
        .await
        .map_err(explain)?;
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Make {} ({} now) the owner of {} ({})? {} becomes an admin.",
            user.email,
            role.as_str(),
            found.team.name,
            found.team.id,
            found.owner_email
        ),
    )?;
    admin
        .transfer(&operator(ctx, reason)?, Some(found.team.id), user.id)
        .await
        .map_err(changed(&found.team))?;
    println!(
        "{} is now the owner of {}; {} is an admin.",
        user.email, found.team.name, found.owner_email
    );
    Ok(())
}

pub async fn seats_set(ctx: &Ctx, a: TeamSeatsSet) -> anyhow::Result<()> {
    let reason = reason(&a.reason, "the seats change")?;
    let admin = service(ctx);
    let team = admin.find(&a.team).await.map_err(explain)?.team;
    let route = seats_route(&team);
    let before = seats_after(&admin, &team).await?;
    let via = match &route {
        SeatsRoute::Record => String::new(),
        SeatsRoute::Stripe { subscription_id } => format!(
            " This changes the quantity of its Stripe subscription {subscription_id} (prorated on the next invoice)."
        ),
    };
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Set the seats of {} ({}) to {} (now {})?{via}",
            team.name,
            team.id,
            a.seats,
            seats_now(before)
        ),
    )?;
    let actor = operator(ctx, reason)?;
    let after = match route {
        SeatsRoute::Record => admin
            .record_seats(&actor, &team, a.seats)
            .await
            .map_err(explain)?,
        SeatsRoute::Stripe { .. } => stripe_seats(ctx, &actor, &team, a.seats).await?,
    };
    println!(
        "{}: {} seats (was {}); {}.",
        team.name,
        a.seats,
        team.seats(),
        seats_now(after)
    );
    Ok(())
}

/// The seats of a team with a live Stripe subscription change through the billing service: under
/// the team's lock it checks them against members and pending invites, changes the subscription
/// item's quantity at Stripe (prorated from now), stores what Stripe answered and the audit row.
async fn stripe_seats(
    ctx: &Ctx,
    by: &Actor,
    team: &TeamRow,
    seats: u32,
) -> anyhow::Result<SeatsView> {
    // The root's billing talks to the Stripe the command's flags name (`services` in lib.rs).
    (ctx.billing)
        .change_team_seats(by, Some(team.id), seats, None)
        .await
        .map_err(|e| match e {
            TeamBillingError::StripeUnavailable(_) => anyhow::anyhow!(
                "{e}; nothing changed. Try again, or check --stripe-api-base / STRIPE_API_BASE"
            ),
            e => anyhow::anyhow!("{e}"),
        })
}

async fn seats_after(admin: &Teams, team: &TeamRow) -> anyhow::Result<SeatsView> {
    let found = admin.find(&team.id.to_string()).await.map_err(explain)?;
    admin.seats(&found.team).await.map_err(explain)
}
