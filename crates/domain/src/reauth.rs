//! Re-authentication ("sudo mode"): a session may take a sensitive action (approve a device, allow
//! the desktop app's browser sign-in, change the password, delete or hand over a team) only when
//! its password was entered on it a short while ago. A stolen access token or a refreshed session
//! alone is then not enough: refreshing keeps the time of the last entry and never renews it.

use time::{Duration, OffsetDateTime};

/// How long one password entry keeps a session able to take sensitive actions.
pub const REAUTH_WINDOW: Duration = Duration::minutes(15);

/// True when `password_at` (the last time the password was entered on the session, `None` when
/// never, as for sessions the desktop app started) lies within `REAUTH_WINDOW` before `now`.
pub fn password_is_recent(password_at: Option<OffsetDateTime>, now: OffsetDateTime) -> bool {
    password_at.is_some_and(|at| now < reauth_until(at))
}

/// When the window of a stamp made at `password_at` closes.
pub fn reauth_until(password_at: OffsetDateTime) -> OffsetDateTime {
    password_at + REAUTH_WINDOW
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-01-01 12:00 UTC);

    #[test]
    fn a_session_whose_password_was_never_entered_is_not_recent() {
        assert!(!password_is_recent(None, NOW));
    }

    #[test]
    fn an_entry_counts_for_fifteen_minutes_exactly() {
        assert!(password_is_recent(Some(NOW), NOW));
        let just_inside = NOW - REAUTH_WINDOW + Duration::seconds(1);
        assert!(password_is_recent(Some(just_inside), NOW));
        assert!(!password_is_recent(Some(NOW - REAUTH_WINDOW), NOW));
        assert!(!password_is_recent(Some(NOW - Duration::days(1)), NOW));
        assert_eq!(reauth_until(NOW), NOW + Duration::minutes(15));
    }
}
