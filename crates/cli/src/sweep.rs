//! `closewise db sweep`: one sweep now (`closewise_core::sweep`), the same the API runs on its
//! schedule, written to the audit trail with what it deleted.

use closewise_core::clock::Clock;
use closewise_core::store::audit::NewAudit;
use closewise_core::sweep::Sweeper;
use serde_json::json;

use crate::ctx::Ctx;
use crate::opt::DbSweep;

pub async fn sweep(ctx: &Ctx, a: DbSweep) -> anyhow::Result<()> {
    ctx.confirm(
        a.confirm.yes,
        "Delete expired sign-in codes, old e-mail links and the tokens of ended sessions?",
    )?;
    let now = ctx.now();
    let report = Sweeper::new(ctx.store.clone(), Clock::System)
        .sweep(now)
        .await?;
    ctx.store
        .record_audit(&NewAudit {
            actor: ctx.actor()?,
            action: "db.sweep",
            user_id: None,
            target_email: None,
            reason: a.reason.reason.clone(),
            details: json!({ "deleted": report }),
            now,
        })
        .await?;
    println!(
        "Swept {}: {} device request(s), {} authorization code(s), {} e-mail link(s), \
         {} refresh token(s) of ended sessions, {} rate-limit window(s), \
         {} passkey challenge(s), {} second-factor sign-in token(s), \
         {} single sign-on attempt(s).",
        ctx.target,
        report.device_codes,
        report.oauth_codes,
        report.email_tokens,
        report.session_tokens,
        report.rate_limits,
        report.webauthn_challenges,
        report.mfa_tokens,
        report.sso_logins
    );
    Ok(())
}
