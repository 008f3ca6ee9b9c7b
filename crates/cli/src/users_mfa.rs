//! `closewise users mfa show|reset EMAIL`: an account's second factor, and the operator's reset
//! for a customer who lost their phone, their recovery codes or their passkeys.

use serde_json::json;

use crate::ctx::Ctx;
use crate::opt::users::MfaReset;
use crate::opt::UserShow;
use crate::print::{self, rfc3339_opt, when_opt};

pub async fn show(ctx: &Ctx, a: UserShow) -> anyhow::Result<()> {
    let user = ctx.user(&a.email).await?;
    let view = ctx.mfa.operator_view(user.id).await?;
    let (factors, required) = (view.factors, view.required_by_team);
    let (confirmed, pending) = (view.app_confirmed_at, view.app_pending);
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
    let view = ctx.mfa.operator_view(user.id).await?;
    let factors = view.factors;
    let passkeys = if keep_passkeys { 0 } else { factors.passkeys };
    if !view.removable(keep_passkeys) {
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
    // The mail links to the site's settings: the root's base URL (`APP_BASE_URL`).
    let operator = ctx.operator(&a.reason)?;
    let done = (ctx.mfa)
        .reset_by_operator(&operator, user.id, &user.email, keep_passkeys)
        .await?;
    if done.any() {
        let app = if done.app {
            "authenticator app and recovery codes removed, "
        } else {
            ""
        };
        println!(
            "{}: {app}{} passkey(s) removed{}, every session ended, the user mailed.",
            user.email,
            done.passkeys,
            kept(keep_passkeys, done.passkeys_kept)
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
