//! Which expired rows may go, and when: the sweeper (`closewise_core::sweep`) deletes a row once
//! it has stopped working *and* its retention has passed, so a late click or replay still gets
//! its precise answer for a while ("this link was already used", a replayed authorization code
//! revoking the session it made) and nothing an audit or a user-visible list reads is deleted.
//!
//! | kind | goes when | kept for |
//! |---|---|---|
//! | device sign-in request | expired | [`DEVICE_CODE_RETENTION`]: a late poll still hears `expired_token` |
//! | authorization code | expired | [`AUTH_CODE_RETENTION`]: a replay still revokes its session |
//! | password-reset link | expired | [`EMAIL_TOKEN_RETENTION`]: a late click hears "expired" / "used" |
//! | verification link | expired, and its account confirmed | [`EMAIL_TOKEN_RETENTION`] |
//! | refresh tokens of a session | the session revoked, or its newest token expired | [`SESSION_TOKENS_RETENTION`] |
//! | passkey (WebAuthn) challenge | expired, answered or not | [`WEBAUTHN_CHALLENGE_RETENTION`]: a late answer still hears `challenge_expired` |
//! | second-factor sign-in token (`mfa_token`) | expired, spent or not | [`MFA_TOKEN_RETENTION`] |
//! | single sign-on attempt (`sso_logins`) | expired, finished or not | [`SSO_LOGIN_RETENTION`], none: a late callback hears `sso_login_expired` whether its row is there or not |
//! | a team's setup link for IT (`team_setup_links`) | expired, revoked or finished | [`crate::setup_links::SETUP_LINK_KEPT`]: the owner's list shows it until then |
//! | an event stream's event (`stream_outbox`) | delivered | [`STREAM_OUTBOX_RETENTION`]: replay reads the audit trail, not these rows; what is still owed is never deleted |
//! | an event stream's delivery attempt (`stream_deliveries`) | older than the stream's newest [`STREAM_DELIVERIES_KEPT`] | none: the list shows those |
//!
//! Kept for good: sessions (the account's sign-in history), calls, grants, the audit trail,
//! webhook events, sent mail, team invites (expired ones are listed and can be resent) and join
//! requests. A verification link of an unconfirmed account is kept too: it carries the password
//! its sign-up chose, which a resent link confirms (pre-hijacking, `tokens.rs` in the store).

use time::{Duration, OffsetDateTime};

pub const DEVICE_CODE_RETENTION: Duration = Duration::hours(1);
pub const AUTH_CODE_RETENTION: Duration = Duration::days(1);
pub const EMAIL_TOKEN_RETENTION: Duration = Duration::days(7);
pub const SESSION_TOKENS_RETENTION: Duration = Duration::days(7);
pub const WEBAUTHN_CHALLENGE_RETENTION: Duration = Duration::hours(1);
pub const MFA_TOKEN_RETENTION: Duration = Duration::hours(1);
pub const SSO_LOGIN_RETENTION: Duration = Duration::ZERO;
pub const STREAM_OUTBOX_RETENTION: Duration = Duration::days(1);
/// How many delivery attempts of each event stream are kept (its deliveries list shows them all).
pub const STREAM_DELIVERIES_KEPT: i64 = 100;

/// The default time between two sweeps (`SWEEP_INTERVAL_SECS`).
pub const DEFAULT_SWEEP_INTERVAL_SECS: u64 = 300;
/// The default cap on device sign-in requests waiting for a decision, all clients together
/// (`DEVICE_REQUESTS_MAX_PENDING`).
pub const DEFAULT_MAX_PENDING_DEVICE_REQUESTS: u32 = 10_000;
/// What a refused device request tells the client to wait, in seconds: about one sweep.
pub const DEVICE_REQUESTS_RETRY_AFTER_SECS: u64 = 60;

/// The instants before which each kind of row may go, at `now`: a row whose end (expiry,
/// revocation) is strictly before its cutoff is deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cutoffs {
    pub device_codes: OffsetDateTime,
    pub auth_codes: OffsetDateTime,
    pub email_tokens: OffsetDateTime,
    pub session_tokens: OffsetDateTime,
    pub webauthn_challenges: OffsetDateTime,
    pub mfa_tokens: OffsetDateTime,
    pub sso_logins: OffsetDateTime,
    /// Ended (expired, revoked or finished) before this.
    pub setup_links: OffsetDateTime,
    /// Delivered before this.
    pub stream_outbox: OffsetDateTime,
}

pub fn cutoffs(now: OffsetDateTime) -> Cutoffs {
    Cutoffs {
        device_codes: now - DEVICE_CODE_RETENTION,
        auth_codes: now - AUTH_CODE_RETENTION,
        email_tokens: now - EMAIL_TOKEN_RETENTION,
        session_tokens: now - SESSION_TOKENS_RETENTION,
        webauthn_challenges: now - WEBAUTHN_CHALLENGE_RETENTION,
        mfa_tokens: now - MFA_TOKEN_RETENTION,
        sso_logins: now - SSO_LOGIN_RETENTION,
        setup_links: now - crate::setup_links::SETUP_LINK_KEPT,
        stream_outbox: now - STREAM_OUTBOX_RETENTION,
    }
}

/// Whether a new device sign-in request may be stored while `pending` wait (0: no cap).
pub fn device_request_allowed(pending: u32, max_pending: u32) -> bool {
    max_pending == 0 || pending < max_pending
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const T0: OffsetDateTime = datetime!(2026-11-25 12:00:00 UTC);

    #[test]
    fn each_kind_is_kept_for_its_retention_after_it_stopped_working() {
        let c = cutoffs(T0);
        assert_eq!(c.device_codes, T0 - Duration::hours(1));
        assert_eq!(c.auth_codes, T0 - Duration::days(1));
        assert_eq!(c.email_tokens, T0 - Duration::days(7));
        assert_eq!(c.session_tokens, T0 - Duration::days(7));
        assert_eq!(c.webauthn_challenges, T0 - Duration::hours(1));
        assert_eq!(c.mfa_tokens, T0 - Duration::hours(1));
        assert_eq!(c.stream_outbox, T0 - Duration::days(1));
    }

    #[test]
    fn the_device_request_cap_refuses_at_the_cap_and_zero_turns_it_off() {
        assert!(device_request_allowed(0, 1));
        assert!(device_request_allowed(9_999, 10_000));
        assert!(!device_request_allowed(10_000, 10_000));
        assert!(!device_request_allowed(10_001, 10_000));
        assert!(device_request_allowed(u32::MAX, 0));
    }
}
