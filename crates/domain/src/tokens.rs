//! Lifetimes and state rules of the tokens we issue: e-mail tokens (verification, password reset),
//! access and refresh tokens, and how often mail may be re-sent.
//!
//! Every rule takes `now` as an argument. Boundaries are half-open: a token is valid *before* its
//! `expires_at` and expired *at* it; a grace or wait interval of N seconds covers elapsed times in
//! `[0, N)`.

use std::fmt;

use time::{Duration, OffsetDateTime};

/// How long an e-mail verification link works.
pub const VERIFICATION_TTL: Duration = Duration::hours(24);
/// How long a password-reset link works.
pub const RESET_TTL: Duration = Duration::hours(1);
/// How long an access token works.
pub const ACCESS_TOKEN_TTL: Duration = Duration::hours(1);
/// How long a refresh token works if it is never used.
pub const REFRESH_TOKEN_TTL: Duration = Duration::days(30);
/// How long after rotation a spent refresh token may still be presented (two tabs refreshing at
/// once, a retried request) without being treated as stolen.
pub const REFRESH_REUSE_GRACE: Duration = Duration::seconds(10);
/// Minimum time between two mails of one kind to one address.
pub const RESEND_INTERVAL: Duration = Duration::seconds(60);

/// The kind of single-use token sent by e-mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EmailTokenKind {
    Verification,
    Reset,
}

/// A string that names no [`EmailTokenKind`].
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("unknown e-mail token kind {0:?} (expected \"verification\" or \"reset\")")]
pub struct UnknownTokenKind(pub String);

impl EmailTokenKind {
    pub const ALL: [EmailTokenKind; 2] = [EmailTokenKind::Verification, EmailTokenKind::Reset];

    pub fn ttl(&self) -> Duration {
        match self {
            EmailTokenKind::Verification => VERIFICATION_TTL,
            EmailTokenKind::Reset => RESET_TTL,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            EmailTokenKind::Verification => "verification",
            EmailTokenKind::Reset => "reset",
        }
    }

    pub fn parse(s: &str) -> Result<Self, UnknownTokenKind> {
        match s {
            "verification" => Ok(EmailTokenKind::Verification),
            "reset" => Ok(EmailTokenKind::Reset),
            other => Err(UnknownTokenKind(other.to_owned())),
        }
    }
}

impl fmt::Display for EmailTokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for EmailTokenKind {
    type Err = UnknownTokenKind;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// When a token of `kind` issued at `issued_at` stops working.
pub fn expires_at(kind: EmailTokenKind, issued_at: OffsetDateTime) -> OffsetDateTime {
    issued_at + kind.ttl()
}

/// The state of an e-mail token when it is presented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenCheck {
    Valid,
    Expired,
    Used,
}

/// Checks an e-mail token presented at `now`. A used token reports `Used` even once expired, so
/// the user is told the link was already used rather than that it is old.
pub fn check_email_token(
    expires_at: OffsetDateTime,
    used_at: Option<OffsetDateTime>,
    now: OffsetDateTime,
) -> TokenCheck {
    if used_at.is_some() {
        TokenCheck::Used
    } else if now >= expires_at {
        TokenCheck::Expired
    } else {
        TokenCheck::Valid
    }
}

/// What we know about a presented refresh token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefreshTokenState {
    pub expires_at: OffsetDateTime,
    /// The token's session was ended (sign-out, password change, detected reuse).
    pub revoked: bool,
    /// When the token was exchanged for a new pair, if it was.
    pub rotated_at: Option<OffsetDateTime>,
}

/// What to do with a presented refresh token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefreshDecision {
    /// Unspent and valid: issue a new pair and mark this token spent.
    Rotate,
    /// Spent less than [`REFRESH_REUSE_GRACE`] ago: hand back the session's current pair.
    GraceReplay,
    /// Spent longer ago: someone replays an old token; revoke the whole session.
    ReuseDetected,
    Expired,
    Revoked,
}

/// Default absolute lifetime of a session (a setting): however often it refreshes, the user
/// signs in again after this.
pub const DEFAULT_SESSION_MAX_AGE: Duration = Duration::days(90);

/// When a refresh token issued at `now` expires: [`REFRESH_TOKEN_TTL`] later, but never after
/// the session's absolute end (`session_started_at + max_session_age`). So each refresh slides
/// the window without extending the session past its cap.
pub fn refresh_token_expiry(
    now: OffsetDateTime,
    session_started_at: OffsetDateTime,
    max_session_age: Duration,
) -> OffsetDateTime {
    (now + REFRESH_TOKEN_TTL).min(session_started_at + max_session_age)
}

/// Decides a refresh at `now`: revoked first, then spent (grace or reuse), then expired.
pub fn decide_refresh(state: &RefreshTokenState, now: OffsetDateTime) -> RefreshDecision {
    if state.revoked {
        return RefreshDecision::Revoked;
    }
    if let Some(rotated_at) = state.rotated_at {
        // A rotation stamped in the future (clock skew between servers) counts as just now.
        return if now - rotated_at < REFRESH_REUSE_GRACE {
            RefreshDecision::GraceReplay
        } else {
            RefreshDecision::ReuseDetected
        };
    }
    if now >= state.expires_at {
        RefreshDecision::Expired
    } else {
        RefreshDecision::Rotate
    }
}

/// Seconds the caller must still wait before another mail of this kind, or None.
///
/// The time left until `last_sent_at + RESEND_INTERVAL`, rounded up, so it is at least 1 while
/// inside the interval. (It exceeds 60 only if `last_sent_at` lies in the future, from clock skew.)
pub fn resend_wait(last_sent_at: Option<OffsetDateTime>, now: OffsetDateTime) -> Option<u64> {
    let remaining = last_sent_at? + RESEND_INTERVAL - now;
    if remaining <= Duration::ZERO {
        return None;
    }
    let whole = remaining.whole_seconds();
    let rounded_up = if remaining.subsec_nanoseconds() > 0 {
        whole + 1
    } else {
        whole
    };
    u64::try_from(rounded_up).ok()
}

/// The message shown when a mail is asked for again too soon.
pub fn resend_wait_message(seconds: u64) -> String {
    format!("For security purposes, you can only request this after {seconds} seconds.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use time::macros::datetime;

    const T0: OffsetDateTime = datetime!(2026-11-22 04:00:00 UTC);

    #[test]
    fn token_lifetimes_are_the_documented_ones() {
        assert_eq!(VERIFICATION_TTL, Duration::seconds(24 * 3600));
        assert_eq!(RESET_TTL, Duration::seconds(3600));
        assert_eq!(ACCESS_TOKEN_TTL, Duration::seconds(3600));
        assert_eq!(REFRESH_TOKEN_TTL, Duration::seconds(30 * 24 * 3600));
        assert_eq!(REFRESH_REUSE_GRACE, Duration::seconds(10));
        assert_eq!(RESEND_INTERVAL, Duration::seconds(60));
    }

    #[test]
    fn a_verification_link_lasts_a_day_and_a_reset_link_an_hour() {
        assert_eq!(
            expires_at(EmailTokenKind::Verification, T0),
            datetime!(2026-11-23 04:00:00 UTC)
        );
        assert_eq!(
            expires_at(EmailTokenKind::Reset, T0),
            datetime!(2026-11-22 05:00:00 UTC)
        );
    }

    #[test]
    fn token_kinds_parse_from_their_names_only() {
        for kind in EmailTokenKind::ALL {
            assert_eq!(EmailTokenKind::parse(kind.as_str()), Ok(kind));
            assert_eq!(kind.to_string().parse::<EmailTokenKind>(), Ok(kind));
        }
        assert_eq!(EmailTokenKind::Verification.as_str(), "verification");
        assert_eq!(EmailTokenKind::Reset.as_str(), "reset");
        assert_eq!(
            EmailTokenKind::parse("signup"),
            Err(UnknownTokenKind("signup".into()))
        );
    }

    #[test]
    fn an_email_token_is_valid_until_the_instant_it_expires() {
        let exp = expires_at(EmailTokenKind::Reset, T0);
        assert_eq!(check_email_token(exp, None, T0), TokenCheck::Valid);
        assert_eq!(
            check_email_token(exp, None, exp - Duration::nanoseconds(1)),
            TokenCheck::Valid
        );
        assert_eq!(check_email_token(exp, None, exp), TokenCheck::Expired);
        assert_eq!(
            check_email_token(exp, None, exp + Duration::days(3)),
            TokenCheck::Expired
        );
    }

    #[test]
    fn a_used_token_reports_used_even_after_it_expired() {
        let exp = expires_at(EmailTokenKind::Verification, T0);
        let used = Some(T0 + Duration::minutes(5));
        assert_eq!(
            check_email_token(exp, used, T0 + Duration::minutes(6)),
            TokenCheck::Used
        );
        assert_eq!(
            check_email_token(exp, used, exp + Duration::days(1)),
            TokenCheck::Used
        );
    }

    #[test]
    fn a_refresh_token_never_outlives_its_sessions_absolute_end() {
        let start = datetime!(2026-01-01 0:00 UTC);
        let cap = DEFAULT_SESSION_MAX_AGE;
        assert_eq!(
            refresh_token_expiry(start, start, cap),
            start + REFRESH_TOKEN_TTL
        );
        let day80 = start + Duration::days(80);
        assert_eq!(
            refresh_token_expiry(day80, start, cap),
            start + Duration::days(90)
        );
        let after = start + Duration::days(95);
        assert!(
            refresh_token_expiry(after, start, cap) <= after,
            "expired at once"
        );
    }

    proptest! {
        #[test]
        fn the_expiry_is_within_the_ttl_and_the_cap(secs in 0i64..(200 * 86_400), cap_days in 1i64..400) {
            let start = datetime!(2026-01-01 0:00 UTC);
            let now = start + Duration::seconds(secs);
            let cap = Duration::days(cap_days);
            let e = refresh_token_expiry(now, start, cap);
            prop_assert!(e <= now + REFRESH_TOKEN_TTL);
            prop_assert!(e <= start + cap);
            prop_assert!(e == now + REFRESH_TOKEN_TTL || e == start + cap);
        }
    }

    fn fresh(expires_at: OffsetDateTime) -> RefreshTokenState {
        RefreshTokenState {
            expires_at,
            revoked: false,
            rotated_at: None,
        }
    }

    #[test]
    fn an_unspent_refresh_token_rotates_until_it_expires() {
        let exp = T0 + REFRESH_TOKEN_TTL;
        assert_eq!(decide_refresh(&fresh(exp), T0), RefreshDecision::Rotate);
        assert_eq!(
            decide_refresh(&fresh(exp), exp - Duration::seconds(1)),
            RefreshDecision::Rotate
        );
        assert_eq!(decide_refresh(&fresh(exp), exp), RefreshDecision::Expired);
    }

    #[test]
    fn a_spent_refresh_token_replays_within_ten_seconds_and_is_reuse_after() {
        let exp = T0 + REFRESH_TOKEN_TTL;
        let state = RefreshTokenState {
            rotated_at: Some(T0),
            ..fresh(exp)
        };
        assert_eq!(decide_refresh(&state, T0), RefreshDecision::GraceReplay);
        assert_eq!(
            decide_refresh(&state, T0 + Duration::milliseconds(9_999)),
            RefreshDecision::GraceReplay
        );
        assert_eq!(
            decide_refresh(&state, T0 + Duration::seconds(10)),
            RefreshDecision::ReuseDetected
        );
        assert_eq!(
            decide_refresh(&state, T0 + Duration::days(2)),
            RefreshDecision::ReuseDetected
        );
    }

    #[test]
    fn a_rotation_stamped_in_the_future_counts_as_just_now() {
        let state = RefreshTokenState {
            rotated_at: Some(T0 + Duration::seconds(3)),
            ..fresh(T0 + REFRESH_TOKEN_TTL)
        };
        assert_eq!(decide_refresh(&state, T0), RefreshDecision::GraceReplay);
    }

    #[test]
    fn revocation_wins_over_everything_else() {
        let spent_and_expired = RefreshTokenState {
            expires_at: T0,
            revoked: true,
            rotated_at: Some(T0),
        };
        assert_eq!(
            decide_refresh(&spent_and_expired, T0 + Duration::days(90)),
            RefreshDecision::Revoked
        );
        let revoked_fresh = RefreshTokenState {
            revoked: true,
            ..fresh(T0 + REFRESH_TOKEN_TTL)
        };
        assert_eq!(decide_refresh(&revoked_fresh, T0), RefreshDecision::Revoked);
    }

    #[test]
    fn a_spent_token_is_reuse_even_after_it_expired() {
        let state = RefreshTokenState {
            expires_at: T0,
            revoked: false,
            rotated_at: Some(T0),
        };
        assert_eq!(
            decide_refresh(&state, T0 + Duration::hours(1)),
            RefreshDecision::ReuseDetected
        );
        assert_eq!(
            decide_refresh(&state, T0 + Duration::seconds(1)),
            RefreshDecision::GraceReplay
        );
    }

    #[test]
    fn mail_never_sent_can_be_sent_at_once() {
        assert_eq!(resend_wait(None, T0), None);
    }

    #[test]
    fn the_wait_counts_down_from_sixty_seconds_rounding_up() {
        assert_eq!(resend_wait(Some(T0), T0), Some(60));
        assert_eq!(
            resend_wait(Some(T0), T0 + Duration::milliseconds(1)),
            Some(60)
        );
        assert_eq!(resend_wait(Some(T0), T0 + Duration::seconds(1)), Some(59));
        assert_eq!(
            resend_wait(Some(T0), T0 + Duration::milliseconds(59_001)),
            Some(1)
        );
        assert_eq!(
            resend_wait(Some(T0), T0 + Duration::nanoseconds(59_999_999_999)),
            Some(1)
        );
        assert_eq!(resend_wait(Some(T0), T0 + Duration::seconds(60)), None);
        assert_eq!(resend_wait(Some(T0), T0 + Duration::hours(5)), None);
    }

    #[test]
    fn a_send_stamped_in_the_future_waits_until_sixty_seconds_after_it() {
        assert_eq!(resend_wait(Some(T0 + Duration::seconds(30)), T0), Some(90));
    }

    #[test]
    fn the_wait_message_is_the_one_users_see() {
        assert_eq!(
            resend_wait_message(42),
            "For security purposes, you can only request this after 42 seconds."
        );
    }

    proptest! {
        #[test]
        fn the_wait_is_between_one_and_sixty_inside_the_interval_and_none_after(nanos in -10_000_000_000i64..120_000_000_000) {
            let now = T0 + Duration::nanoseconds(nanos);
            let wait = resend_wait(Some(T0), now);
            if nanos >= 60_000_000_000 {
                prop_assert_eq!(wait, None);
            } else {
                let wait = wait.unwrap();
                if nanos >= 0 {
                    prop_assert!((1..=60).contains(&wait));
                }
                // Waiting the given seconds is always enough, and one second less never is.
                let after = now + Duration::seconds(wait as i64);
                prop_assert_eq!(resend_wait(Some(T0), after), None);
                let before = now + Duration::seconds(wait as i64 - 1);
                prop_assert!(resend_wait(Some(T0), before).is_some());
            }
        }

        #[test]
        fn an_email_token_is_valid_exactly_before_expiry_when_unused(offset in -1_000_000i64..1_000_000) {
            let exp = T0;
            let now = T0 + Duration::milliseconds(offset);
            let expected = if offset < 0 { TokenCheck::Valid } else { TokenCheck::Expired };
            prop_assert_eq!(check_email_token(exp, None, now), expected);
            prop_assert_eq!(check_email_token(exp, Some(T0 - Duration::hours(1)), now), TokenCheck::Used);
        }

        #[test]
        fn refresh_decisions_follow_their_precedence(
            revoked in any::<bool>(),
            rotated_offset in proptest::option::of(-60_000i64..0),
            expiry_offset in -60_000i64..60_000,
        ) {
            // now = T0; rotated and expiry instants relative to it, in milliseconds.
            let state = RefreshTokenState {
                expires_at: T0 + Duration::milliseconds(expiry_offset),
                revoked,
                rotated_at: rotated_offset.map(|ms| T0 + Duration::milliseconds(ms)),
            };
            let expected = match (revoked, rotated_offset) {
                (true, _) => RefreshDecision::Revoked,
                (false, Some(ms)) if -ms < 10_000 => RefreshDecision::GraceReplay,
                (false, Some(_)) => RefreshDecision::ReuseDetected,
                (false, None) if expiry_offset <= 0 => RefreshDecision::Expired,
                (false, None) => RefreshDecision::Rotate,
            };
            prop_assert_eq!(decide_refresh(&state, T0), expected);
        }
    }
}
