//! `closewise db sweep`: one sweep now (`closewise_core::sweep`), the same the API runs on its
//! schedule, written to the audit trail with what it deleted.

use crate::ctx::Ctx;
use crate::opt::DbSweep;

pub async fn sweep(ctx: &Ctx, a: DbSweep) -> anyhow::Result<()> {
    ctx.confirm(
        a.confirm.yes,
        "Delete expired sign-in codes, old e-mail links and the tokens of ended sessions?",
    )?;
    let report = ctx.ops.sweep(&ctx.operator(&a.reason)?).await?;
    println!(
        "Swept {}: {} device request(s), {} authorization code(s), {} e-mail link(s), \
         {} refresh token(s) of ended sessions, {} rate-limit window(s), \
         {} passkey challenge(s), {} second-factor sign-in token(s), \
         {} single sign-on attempt(s), {} delivered stream event(s), \
         {} old stream delivery record(s).",
        ctx.target,
        report.device_codes,
        report.oauth_codes,
        report.email_tokens,
        report.session_tokens,
        report.rate_limits,
        report.webauthn_challenges,
        report.mfa_tokens,
        report.sso_logins,
        report.stream_outbox,
        report.stream_deliveries
    );
    Ok(())
}
