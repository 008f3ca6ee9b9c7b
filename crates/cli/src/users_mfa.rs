//! `closewise users mfa show|reset EMAIL`: an account's second factor, and the operator's reset
//! for a customer who lost their phone, their recovery codes or their passkeys.

use closewise_core::mail::Composer;
use closewise_core::mfa::reset_by_operator;
use serde_json::json;

use crate::ctx::Ctx;
use crate::opt::users::MfaReset;
use crate::opt::UserShow;
use crate::print::{self, rfc3339_opt, when_opt};

pub async fn show(ctx: &Ctx, a: UserShow) -> anyhow::Result<()> {
    let user = ctx.user(&a.email).await?;
    let factors = ctx.store.mfa_factors(user.id).await?;
    let app = ctx.store.totp_of(user.id).await?;
    let required = ctx.store.team_requires_mfa(user.id).await?;
    let confirmed = app.as_ref().and_then(|r| r.confirmed_at);
    let pending = app.as_ref().is_some_and(|r| r.confirmed_at.is_none());
    if a.output.json {
        return print::json(&json!({
            "email": user.email,
            "totp": factors.totp,
            "totp_confirmed_at": rfc3339_opt(confirmed),
            "totp_pending": pending,
            "recovery_codes_remaining": factors.recovery_codes,
            "passkeys": factors.passkeys,
            "required_by_team": required,
        }));
    }
    println!("{}", user.email);
    if factors.totp {
        println!("  authenticator app: set up {}", when_opt(confirmed));
        println!("  recovery codes:    {} unused", factors.recovery_codes);
    } else if pending {
        println!("  authenticator app: set-up started, never confirmed (not a factor)");
    } else {
        println!("  authenticator app: none");
    }
    println!("  passkeys:          {}", factors.passkeys);
    println!(
        "  a team requires a second factor: {}",
        if required { "yes" } else { "no" }
    );
    Ok(())
}

pub async fn reset(ctx: &Ctx, a: MfaReset) -> anyhow::Result<()> {
    let MfaReset {
        user: a,
        keep_passkeys,
    } = a;
    let user = ctx.user(&a.email).await?;
    let factors = ctx.store.mfa_factors(user.id).await?;
    let has_app = ctx.store.totp_of(user.id).await?.is_some();
    let passkeys = if keep_passkeys { 0 } else { factors.passkeys };
    if !has_app && passkeys == 0 {
        println!(
            "{} has no authenticator app{}; nothing changed.",
            user.email,
            kept(keep_passkeys, factors.passkeys)
        );
        return Ok(());
    }
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Remove the authenticator app, the {} recovery code(s) and {} passkey(s) of {}, and end \
             every session? Only do this once you have checked who is asking.",
            factors.recovery_codes, passkeys, user.email
        ),
    )?;
    let audit = ctx.audit(
        "user.mfa_reset",
        &user,
        &a.reason,
        json!({
            "totp": factors.totp,
            "recovery_codes": factors.recovery_codes,
            "passkeys": passkeys,
            "passkeys_kept": if keep_passkeys { factors.passkeys } else { 0 },
        }),
    )?;
    // The mail links to the site's settings: the API's public URL when this shell knows it.
    let base_url = std::env::var("APP_BASE_URL").unwrap_or_else(|_| "http://localhost:8080".into());
    let now = audit.now;
    let done = reset_by_operator(
        &ctx.store,
        &Composer::new(&base_url),
        user.id,
        &user.email,
        !keep_passkeys,
        now,
    )
    .await?;
    if done.any() {
        ctx.store.record_audit(&audit).await?;
        let app = if done.app {
            "authenticator app and recovery codes removed, "
        } else {
            ""
        };
        println!(
            "{}: {app}{} passkey(s) removed{}, every session ended, the user mailed.",
            user.email,
            done.passkeys,
            kept(keep_passkeys, factors.passkeys)
        );
    } else {
        println!("{} has no authenticator app; nothing changed.", user.email);
    }
    Ok(())
}

/// What `--keep-passkeys` left, for the output: the passkeys still sign this account in.
fn kept(keep_passkeys: bool, passkeys: u32) -> String {
    if keep_passkeys && passkeys > 0 {
        format!(" ({passkeys} passkey(s) kept: they still sign in)")
    } else {
        String::new()
    }
}
