//! `closewise db sweep`: one sweep now (`closewise_core::sweep`), the same the API runs on its
//! schedule with the SAML connections' upkeep, written to the audit trail with what it did.

use crate::ctx::Ctx;
use crate::opt::DbSweep;

pub async fn sweep(ctx: &Ctx, a: DbSweep) -> anyhow::Result<()> {
    ctx.confirm(
        a.confirm.yes,
        "Delete expired sign-in codes, old e-mail links and the tokens of ended sessions?",
    )?;
    let run = ctx.ops.sweep(&ctx.operator(&a.reason)?).await?;
    let (report, saml) = (run.deleted, run.saml);
    println!(
        "Swept {}: {} device request(s), {} authorization code(s), {} e-mail link(s), \
         {} refresh token(s) of ended sessions, {} rate-limit window(s), \
         {} passkey challenge(s), {} second-factor sign-in token(s), \
         {} single sign-on attempt(s), {} old setup link(s), {} delivered stream event(s), \
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
        report.setup_links,
        report.stream_outbox,
        report.stream_deliveries
    );
    println!(
        "SAML single sign-on: {} metadata URL(s) read again ({} changed, {} failed and kept), \
         {} certificate expiry mail(s) to owners.",
        saml.metadata_read, saml.metadata_changed, saml.metadata_failed, saml.certificate_mails
    );
    Ok(())
}
