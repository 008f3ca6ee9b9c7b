//! An operator's look at an account's second factor and the reset (`closewise users mfa show|reset`)
//! for a customer who lost their phone, their recovery codes or their passkeys.

use closewise_domain::mfa::Factors;
use serde_json::json;
use time::OffsetDateTime;
use uuid::Uuid;

use super::{enrolment, Mfa, MfaError};
use crate::actor::Actor;
use crate::mail::Template;

/// An account's second factor as an operator sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperatorView {
    pub factors: Factors,
    /// When the authenticator app was confirmed.
    pub app_confirmed_at: Option<OffsetDateTime>,
    /// An app's set-up started and never confirmed: not a factor, but a reset removes it.
    pub app_pending: bool,
    /// A team the user belongs to requires a second factor.
    pub required_by_team: bool,
}

impl OperatorView {
    /// Whether a reset would remove anything (the passkeys count unless kept).
    pub fn removable(&self, keep_passkeys: bool) -> bool {
        self.factors.totp || self.app_pending || (!keep_passkeys && self.factors.passkeys > 0)
    }
}

/// What the operator's reset removed; nothing at all when there was nothing to remove.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OperatorReset {
    /// The authenticator app and its recovery codes.
    pub app: bool,
    pub passkeys: u64,
    /// The passkeys `keep_passkeys` left: they still sign the account in.
    pub passkeys_kept: u32,
}

impl OperatorReset {
    pub fn any(&self) -> bool {
        self.app || self.passkeys > 0
    }
}

/// The factors a reset removes, as the mail names them ("An authenticator app and 2 passkeys").
fn removed_factors(app: bool, passkeys: u64) -> String {
    let keys = match passkeys {
        0 => None,
        1 => Some("1 passkey".to_owned()),
        n => Some(format!("{n} passkeys")),
    };
    match (app, keys) {
        (true, Some(keys)) => format!("{} and {keys}", enrolment::APP),
        (true, None) => enrolment::APP.into(),
        (false, Some(keys)) => keys,
        (false, None) => String::new(),
    }
}

impl Mfa {
    pub async fn operator_view(&self, user_id: Uuid) -> Result<OperatorView, MfaError> {
        let factors = self.store.mfa_factors(user_id).await?;
        let app = self.store.totp_of(user_id).await?;
        Ok(OperatorView {
            factors,
            app_confirmed_at: app.as_ref().and_then(|r| r.confirmed_at),
            app_pending: app.as_ref().is_some_and(|r| r.confirmed_at.is_none()),
            required_by_team: self.store.team_requires_mfa(user_id).await?,
        })
    }

    /// Removes the app and the recovery codes of `user_id` and, unless `keep_passkeys`, every
    /// passkey (a passkey signs in by itself, so one the customer no longer controls must go too);
    /// mails `email` once, ends every session, and records `user.mfa_reset` for `actor`. Nothing
    /// changes, and nothing is recorded, when there was nothing to remove.
    pub async fn reset_by_operator(
        &self,
        actor: &Actor,
        user_id: Uuid,
        email: &str,
        keep_passkeys: bool,
    ) -> Result<OperatorReset, MfaError> {
        let now = self.clock.now();
        let factors = self.store.mfa_factors(user_id).await?;
        let has_app = self.store.totp_of(user_id).await?.is_some();
        let passkeys = if keep_passkeys {
            0
        } else {
            u64::from(factors.passkeys)
        };
        let mut done = OperatorReset {
            passkeys_kept: if keep_passkeys { factors.passkeys } else { 0 },
            ..OperatorReset::default()
        };
        if !has_app && passkeys == 0 {
            return Ok(done);
        }
        let notice = self.mail.compose(
            email,
            Template::MfaFactorRemoved {
                factor: removed_factors(has_app, passkeys),
                by_operator: true,
            },
            now,
        );
        let audit = actor.audit(
            "user.mfa_reset",
            Some(user_id),
            Some(email.to_owned()),
            json!({
                "totp": factors.totp,
                "recovery_codes": factors.recovery_codes,
                "passkeys": passkeys,
                "passkeys_kept": done.passkeys_kept,
            }),
            now,
        );
        let removed = (self.store)
            .reset_mfa_audited(user_id, passkeys > 0, &notice, &audit)
            .await?;
        (done.app, done.passkeys) = (removed.app, removed.passkeys);
        Ok(done)
    }
}
