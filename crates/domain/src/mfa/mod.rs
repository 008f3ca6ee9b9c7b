//! A second factor: authenticator-app codes ([`totp`]), recovery codes ([`recovery`]),
//! which methods an account offers, the `mfa_token` that carries a half-done sign-in to its code
//! step, and what the re-authentication window asks of an account with a factor.

pub mod recovery;
pub mod totp;

use time::{Duration, OffsetDateTime};

use crate::reauth::password_is_recent;

/// How long the `mfa_token` of a password sign-in waiting for its code lives.
pub const MFA_TOKEN_LIFETIME: Duration = Duration::minutes(5);
/// Wrong codes one `mfa_token` takes before it is void.
pub const MFA_TOKEN_MAX_ATTEMPTS: i32 = 5;

/// A way to give the second factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Totp,
    RecoveryCode,
    Passkey,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Totp => "totp",
            Method::RecoveryCode => "recovery_code",
            Method::Passkey => "passkey",
        }
    }
}

/// The factors an account has enrolled, as counted by the store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Factors {
    /// A confirmed authenticator app.
    pub totp: bool,
    /// Unused recovery codes.
    pub recovery_codes: u32,
    pub passkeys: u32,
}

impl Factors {
    /// A confirmed app or a passkey: recovery codes alone are not a factor (they come with an app).
    pub fn any(&self) -> bool {
        self.totp || self.passkeys > 0
    }

    /// Whether step-up (re-authentication) asks for the factor: any enrolled factor, given there
    /// as an app or recovery code or as a passkey assertion (a `step_up` challenge).
    pub fn step_up_needs_factor(&self) -> bool {
        self.any()
    }

    /// The methods a code step offers, in the order the page shows them.
    pub fn methods(&self) -> Vec<Method> {
        let mut m = Vec::new();
        if self.totp {
            m.push(Method::Totp);
            if self.recovery_codes > 0 {
                m.push(Method::RecoveryCode);
            }
        }
        if self.passkeys > 0 {
            m.push(Method::Passkey);
        }
        m
    }
}

/// A code as typed: six digits for the app, else a recovery code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Code {
    Totp(String),
    Recovery(String),
}

impl Code {
    /// `None` when the input is neither shape.
    pub fn parse(raw: &str) -> Option<Code> {
        totp::parse_code(raw)
            .map(Code::Totp)
            .or_else(|| recovery::normalize(raw).map(Code::Recovery))
    }
}

/// Whether an `mfa_token` made at `created_at` with `attempts` wrong codes may still be redeemed.
pub fn mfa_token_usable(created_at: OffsetDateTime, attempts: i32, now: OffsetDateTime) -> bool {
    now < created_at + MFA_TOKEN_LIFETIME && attempts < MFA_TOKEN_MAX_ATTEMPTS
}

/// Whether a member may approve devices (the desktop app's sign-ins): not while a team they are in
/// requires a second factor they have not set up.
pub fn may_approve_devices(team_requires: bool, has_factor: bool) -> bool {
    !team_requires || has_factor
}

/// Step-up: a sensitive action needs the password entered within the window and, when the account
/// has a factor, the factor given within the window too (a factor sign-in or a re-authentication
/// with a code).
pub fn step_up_satisfied(
    password_at: Option<OffsetDateTime>,
    mfa_at: Option<OffsetDateTime>,
    has_factor: bool,
    now: OffsetDateTime,
) -> bool {
    password_is_recent(password_at, now) && (!has_factor || password_is_recent(mfa_at, now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-03-01 12:00 UTC);

    #[test]
    fn only_an_app_or_a_passkey_is_a_factor_and_methods_follow() {
        let none = Factors::default();
        assert!(!none.any());
        assert!(none.methods().is_empty());
        let app = Factors {
            totp: true,
            recovery_codes: 3,
            passkeys: 0,
        };
        assert!(app.any());
        assert_eq!(app.methods(), [Method::Totp, Method::RecoveryCode]);
        let spent = Factors {
            recovery_codes: 0,
            ..app
        };
        assert_eq!(spent.methods(), [Method::Totp]);
        let keys = Factors {
            totp: false,
            recovery_codes: 4,
            passkeys: 2,
        };
        assert!(keys.any());
        assert_eq!(keys.methods(), [Method::Passkey]);
        assert!(!Factors {
            recovery_codes: 10,
            ..none
        }
        .any());
    }

    #[test]
    fn codes_parse_as_app_or_recovery_codes() {
        assert_eq!(Code::parse(" 123 456 "), Some(Code::Totp("123456".into())));
        assert_eq!(
            Code::parse("ABCDE-fghjk"),
            Some(Code::Recovery("abcdefghjk".into()))
        );
        assert_eq!(Code::parse("12345"), None);
        assert_eq!(Code::parse(""), None);
    }

    #[test]
    fn a_token_lives_five_minutes_and_five_wrong_codes() {
        assert!(mfa_token_usable(NOW, 0, NOW));
        assert!(mfa_token_usable(NOW, 4, NOW + Duration::seconds(299)));
        assert!(!mfa_token_usable(NOW, 0, NOW + Duration::minutes(5)));
        assert!(!mfa_token_usable(NOW, 5, NOW));
    }

    #[test]
    fn a_team_rule_keeps_members_without_a_factor_from_approving_devices() {
        assert!(may_approve_devices(false, false));
        assert!(may_approve_devices(true, true));
        assert!(!may_approve_devices(true, false));
    }

    #[test]
    fn step_up_asks_for_any_enrolled_factor() {
        let app = Factors {
            totp: true,
            recovery_codes: 10,
            passkeys: 0,
        };
        let passkey = Factors {
            totp: false,
            recovery_codes: 0,
            passkeys: 1,
        };
        assert!(app.step_up_needs_factor());
        assert!(passkey.step_up_needs_factor());
        let codes_only = Factors {
            totp: false,
            recovery_codes: 3,
            passkeys: 0,
        };
        assert!(!codes_only.step_up_needs_factor());
    }

    #[test]
    fn step_up_needs_the_factor_only_when_enrolled() {
        let recent = Some(NOW - Duration::minutes(1));
        let old = Some(NOW - Duration::minutes(20));
        assert!(step_up_satisfied(recent, None, false, NOW));
        assert!(!step_up_satisfied(recent, None, true, NOW));
        assert!(!step_up_satisfied(recent, old, true, NOW));
        assert!(step_up_satisfied(recent, recent, true, NOW));
        assert!(!step_up_satisfied(old, recent, true, NOW));
    }
}
