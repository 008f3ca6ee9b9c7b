//! A setup link for IT: the team owner hands a link to whoever runs the company's identity
//! provider, who then verifies the company domain, connects single sign-on (tested with a real
//! sign-in before it is saved) and creates a SCIM token, without a Closewise account. The link is
//! the credential: it names the steps it allows, lives 24 hours, ends when IT finishes or the
//! owner revokes it, and may do nothing else to the team (`setup_link_may`).

use time::{Duration, OffsetDateTime};

use crate::teams::Action;

/// How long a link works after it is made.
pub const SETUP_LINK_TTL: Duration = Duration::hours(24);
/// How long a gone link's row is kept (the owner's list shows it, then the sweeper deletes it).
pub const SETUP_LINK_KEPT: Duration = Duration::days(30);
/// How many links the owner's list shows, newest first.
pub const SETUP_LINKS_LISTED: i64 = 20;

/// What a link lets IT do, in the order the page walks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SetupStep {
    /// Add and verify a company domain.
    Domain,
    /// Connect single sign-on (a draft, saved once a test sign-in passes).
    Sso,
    /// Create a SCIM token.
    Scim,
}

impl SetupStep {
    pub const ALL: [SetupStep; 3] = [SetupStep::Domain, SetupStep::Sso, SetupStep::Scim];

    pub fn as_str(self) -> &'static str {
        match self {
            SetupStep::Domain => "domain",
            SetupStep::Sso => "sso",
            SetupStep::Scim => "scim",
        }
    }

    pub fn parse(raw: &str) -> Option<SetupStep> {
        SetupStep::ALL.into_iter().find(|s| s.as_str() == raw)
    }

    /// The team action this step is: the only actions a setup link may take.
    pub fn action(self) -> Action {
        match self {
            SetupStep::Domain => Action::ManageDomains,
            SetupStep::Sso => Action::ConfigureSso,
            SetupStep::Scim => Action::ManageScim,
        }
    }
}

/// Steps as asked: at least one, none twice, each known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Choose at least one of domain, sso and scim, each once.")]
pub struct InvalidSetupSteps;

/// The steps a link is made with, in the canonical order (domain, sso, scim).
pub fn parse_steps<S: AsRef<str>>(raw: &[S]) -> Result<Vec<SetupStep>, InvalidSetupSteps> {
    let mut steps = Vec::with_capacity(raw.len());
    for r in raw {
        let step = SetupStep::parse(r.as_ref()).ok_or(InvalidSetupSteps)?;
        if steps.contains(&step) {
            return Err(InvalidSetupSteps);
        }
        steps.push(step);
    }
    if steps.is_empty() {
        return Err(InvalidSetupSteps);
    }
    steps.sort();
    Ok(steps)
}

/// Steps as stored (`domain,sso`); unknown words are dropped, the order made canonical.
pub fn stored_steps(raw: &str) -> Vec<SetupStep> {
    let mut steps: Vec<SetupStep> = raw.split(',').filter_map(SetupStep::parse).collect();
    steps.sort();
    steps.dedup();
    steps
}

/// Steps as stored: canonical order, comma-separated.
pub fn store_steps(steps: &[SetupStep]) -> String {
    let mut steps = steps.to_vec();
    steps.sort();
    steps.dedup();
    steps
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// Where a link stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupLinkState {
    Open,
    /// IT finished with it.
    Finished,
    /// The owner (or an operator) revoked it.
    Revoked,
    /// Its 24 hours are over.
    Expired,
}

impl SetupLinkState {
    pub fn as_str(self) -> &'static str {
        match self {
            SetupLinkState::Open => "open",
            SetupLinkState::Finished => "finished",
            SetupLinkState::Revoked => "revoked",
            SetupLinkState::Expired => "expired",
        }
    }

    /// A gone link answers 410 everywhere.
    pub fn gone(self) -> bool {
        self != SetupLinkState::Open
    }

    /// What a gone link's page says.
    pub fn gone_message(self) -> &'static str {
        match self {
            SetupLinkState::Finished => "This setup link was used to finish setup. Ask the team owner for a new one if something is left.",
            _ => "This setup link has expired or was revoked. Ask the team owner for a new one.",
        }
    }
}

/// The state of a link at `now`: finished or revoked as it happened first (a link ends once),
/// else expired from `expires_at` on, else open.
pub fn setup_link_state(
    now: OffsetDateTime,
    expires_at: OffsetDateTime,
    revoked_at: Option<OffsetDateTime>,
    finished_at: Option<OffsetDateTime>,
) -> SetupLinkState {
    match (revoked_at, finished_at) {
        (Some(r), Some(f)) if f <= r => SetupLinkState::Finished,
        (Some(_), _) => SetupLinkState::Revoked,
        (None, Some(_)) => SetupLinkState::Finished,
        (None, None) if now >= expires_at => SetupLinkState::Expired,
        (None, None) => SetupLinkState::Open,
    }
}

/// When a link made at `now` stops working.
pub fn setup_link_expires_at(now: OffsetDateTime) -> OffsetDateTime {
    now + SETUP_LINK_TTL
}

/// Whether a link with `steps` allows `step`.
pub fn may_setup(step: SetupStep, steps: &[SetupStep]) -> bool {
    steps.contains(&step)
}

/// Whether a setup link with `steps` may take `action` on its team: only the action of one of
/// its steps. Billing, members, policy, Require SSO (the owner's part of `ConfigureSso`, which
/// the link's command never sets) and every other setting are none of them.
pub fn setup_link_may(action: Action, steps: &[SetupStep]) -> bool {
    steps.iter().any(|s| s.action() == action)
}

/// Whether a gone link's row is old enough for the sweeper: it ended (or expired) more than
/// `SETUP_LINK_KEPT` ago.
pub fn setup_link_sweepable(
    now: OffsetDateTime,
    expires_at: OffsetDateTime,
    revoked_at: Option<OffsetDateTime>,
    finished_at: Option<OffsetDateTime>,
) -> bool {
    let ended = [Some(expires_at), revoked_at, finished_at]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(expires_at);
    now - ended > SETUP_LINK_KEPT
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn at(h: i64) -> OffsetDateTime {
        OffsetDateTime::UNIX_EPOCH + Duration::hours(h)
    }

    #[test]
    fn steps_are_stored_in_the_canonical_order_whatever_order_they_came_in() {
        assert_eq!(
            parse_steps(&["scim", "domain"]).unwrap(),
            vec![SetupStep::Domain, SetupStep::Scim]
        );
        assert_eq!(
            store_steps(&parse_steps(&["scim", "sso", "domain"]).unwrap()),
            "domain,sso,scim"
        );
        assert_eq!(
            stored_steps("scim,domain,bogus"),
            vec![SetupStep::Domain, SetupStep::Scim]
        );
    }

    #[test]
    fn no_steps_a_repeated_step_or_an_unknown_one_is_refused() {
        let none: [&str; 0] = [];
        for bad in [
            &none[..],
            &["sso", "sso"][..],
            &["billing"][..],
            &["Domain"][..],
            &[""][..],
        ] {
            assert_eq!(parse_steps(bad), Err(InvalidSetupSteps), "{bad:?}");
        }
    }

    #[test]
    fn a_link_is_open_for_24_hours_then_expired() {
        let made = at(0);
        let expires = setup_link_expires_at(made);
        assert_eq!(expires, at(24));
        assert_eq!(
            setup_link_state(at(23), expires, None, None),
            SetupLinkState::Open
        );
        assert_eq!(
            setup_link_state(at(24), expires, None, None),
            SetupLinkState::Expired
        );
        assert!(setup_link_state(at(24), expires, None, None).gone());
    }

    #[test]
    fn a_revoked_or_finished_link_is_gone_before_it_expires_and_ends_once() {
        let expires = at(24);
        assert_eq!(
            setup_link_state(at(1), expires, Some(at(1)), None),
            SetupLinkState::Revoked
        );
        assert_eq!(
            setup_link_state(at(1), expires, None, Some(at(1))),
            SetupLinkState::Finished
        );
        // Revoking a finished link leaves it finished.
        assert_eq!(
            setup_link_state(at(30), expires, Some(at(3)), Some(at(2))),
            SetupLinkState::Finished
        );
        assert_eq!(SetupLinkState::Expired.as_str(), "expired");
    }

    #[test]
    fn a_setup_link_may_take_only_the_actions_of_its_steps() {
        let all = SetupStep::ALL;
        for action in Action::ALL {
            let allowed = matches!(
                action,
                Action::ManageDomains | Action::ConfigureSso | Action::ManageScim
            );
            assert_eq!(setup_link_may(action, &all), allowed, "{action:?}");
        }
        for billing in Action::BILLING {
            assert!(!setup_link_may(billing, &all), "{billing:?}");
        }
        assert!(!setup_link_may(Action::ConfigureSso, &[SetupStep::Domain]));
        assert!(may_setup(
            SetupStep::Scim,
            &[SetupStep::Sso, SetupStep::Scim]
        ));
        assert!(!may_setup(SetupStep::Domain, &[SetupStep::Sso]));
    }

    #[test]
    fn a_gone_link_is_swept_30_days_after_it_ended() {
        let expires = at(24);
        assert!(!setup_link_sweepable(at(24 + 30 * 24), expires, None, None));
        assert!(setup_link_sweepable(at(25 + 30 * 24), expires, None, None));
        assert!(setup_link_sweepable(
            at(2 + 30 * 24),
            expires,
            Some(at(1)),
            None
        ));
    }

    proptest! {
        #[test]
        fn every_non_empty_set_of_known_steps_parses_in_canonical_order(
            picks in proptest::sample::subsequence(vec!["domain", "sso", "scim"], 1..=3),
            shuffle in any::<bool>(),
        ) {
            let mut raw = picks.clone();
            if shuffle { raw.reverse(); }
            let steps = parse_steps(&raw).unwrap();
            prop_assert_eq!(steps.len(), picks.len());
            prop_assert!(steps.windows(2).all(|w| w[0] < w[1]));
        }

        #[test]
        fn any_unknown_word_among_the_steps_is_refused(word in "[a-z]{1,8}") {
            prop_assume!(SetupStep::parse(&word).is_none());
            prop_assert_eq!(parse_steps(&["domain", word.as_str()]), Err(InvalidSetupSteps));
        }
    }
}
