//! Verified company domains (docs/teams.md): the owner claims a domain, publishes a DNS
//! TXT record `_closewise-challenge.<domain>` with `closewise-domain-verification=<token>`, and the
//! domain is verified once the record is seen. A verified domain is re-checked daily; a record
//! gone for [`UNVERIFY_AFTER`] un-verifies it. Public mail domains are refused
//! (`crate::mail_domains`), so are names that are not a registrable host name.

use time::{Duration, OffsetDateTime};

use crate::mail_domains::is_public_mail_domain;

/// The label the TXT record is published under, before the domain.
pub const TXT_LABEL: &str = "_closewise-challenge";
/// What the TXT record's value starts with; the random token follows.
pub const TXT_VALUE_PREFIX: &str = "closewise-domain-verification=";
/// A verified domain is looked up again this long after its last check.
pub const RECHECK_EVERY: Duration = Duration::days(1);
/// A verified domain whose record has not been seen for this long is verified no more.
pub const UNVERIFY_AFTER: Duration = Duration::days(7);
/// The longest domain name (RFC 1035, without the trailing dot).
pub const MAX_DOMAIN_LEN: usize = 253;
/// The most domains one team may claim (verified or pending).
pub const MAX_TEAM_DOMAINS: u32 = 100;

/// Why a domain cannot be claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    #[error("Please enter a domain name such as northwind.example (no address, no https://).")]
    Malformed,
    #[error("Anyone can get an address at a public mail provider's domain: it cannot be your company's domain.")]
    PublicMail,
}

impl DomainError {
    pub fn code(&self) -> &'static str {
        match self {
            DomainError::Malformed => "invalid_domain",
            DomainError::PublicMail => "public_mail_domain",
        }
    }
}

/// A domain as typed, made canonical: trimmed, lower case, without the trailing dot. It must be a
/// host name of at least two labels (letters, digits and inner hyphens, 1 to 63 each, at most 253
/// in all; the last not all digits) and not a public mail provider's.
pub fn normalize_domain(input: &str) -> Result<String, DomainError> {
    let d = input.trim().trim_end_matches('.').to_ascii_lowercase();
    if d.is_empty() || d.len() > MAX_DOMAIN_LEN || !d.is_ascii() {
        return Err(DomainError::Malformed);
    }
    let labels: Vec<&str> = d.split('.').collect();
    let label_ok = |l: &&str| {
        (1..=63).contains(&l.len())
            && l.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    let tld_ok = labels
        .last()
        .is_some_and(|t| !t.bytes().all(|b| b.is_ascii_digit()));
    if labels.len() < 2 || !labels.iter().all(label_ok) || !tld_ok {
        return Err(DomainError::Malformed);
    }
    if is_public_mail_domain(&d) {
        return Err(DomainError::PublicMail);
    }
    Ok(d)
}

/// The name the TXT record is published under: `_closewise-challenge.<domain>`.
pub fn txt_name(domain: &str) -> String {
    format!("{TXT_LABEL}.{domain}")
}

/// The TXT record's value: `closewise-domain-verification=<token>`.
pub fn txt_value(token: &str) -> String {
    format!("{TXT_VALUE_PREFIX}{token}")
}

/// Whether one of the TXT records found (each its strings joined) is the one asked for; spaces
/// around a value and the case of the prefix do not matter, the token's case does.
pub fn record_found(records: &[String], token: &str) -> bool {
    records.iter().any(|r| {
        let r = r.trim();
        r.len() > TXT_VALUE_PREFIX.len()
            && r.is_char_boundary(TXT_VALUE_PREFIX.len())
            && r[..TXT_VALUE_PREFIX.len()].eq_ignore_ascii_case(TXT_VALUE_PREFIX)
            && r[TXT_VALUE_PREFIX.len()..].trim() == token
    })
}

/// The checks before `now` that are due: the last check at or before this.
pub fn recheck_cutoff(now: OffsetDateTime) -> OffsetDateTime {
    now - RECHECK_EVERY
}

/// What a re-check of a verified domain does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recheck {
    /// The record is there: it was seen now.
    Seen,
    /// Missing, but seen within [`UNVERIFY_AFTER`]: still verified.
    Missing,
    /// Missing for [`UNVERIFY_AFTER`] or more: verified no more.
    Unverify,
}

/// The outcome of a re-check at `now` that `found` the record or not, for a domain whose record
/// was last seen at `last_seen_at` (else since it was verified, `verified_at`).
pub fn recheck(
    found: bool,
    last_seen_at: Option<OffsetDateTime>,
    verified_at: Option<OffsetDateTime>,
    now: OffsetDateTime,
) -> Recheck {
    if found {
        return Recheck::Seen;
    }
    match last_seen_at.or(verified_at) {
        Some(seen) if now - seen < UNVERIFY_AFTER => Recheck::Missing,
        _ => Recheck::Unverify,
    }
}

/// Domain join may be turned on only for one of the team's verified domains (never a public mail
/// domain, which cannot be verified in the first place).
pub fn may_enable_domain_join(domain: &str, verified_domains: &[String]) -> bool {
    let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    !is_public_mail_domain(&domain) && verified_domains.contains(&domain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use time::macros::datetime;

    #[test]
    fn domains_are_canonical_host_names() {
        assert_eq!(
            normalize_domain("  NorthWind.Example. ").unwrap(),
            "northwind.example"
        );
        assert_eq!(
            normalize_domain("eu.sales-01.northwind.example").unwrap(),
            "eu.sales-01.northwind.example"
        );
        for bad in [
            "",
            "localhost",
            "ana@northwind.example",
            "https://northwind.example",
            "northwind..example",
            "-northwind.example",
            "northwind-.example",
            "north wind.example",
            "northwind.example/path",
            "10.0.0.1",
            "nörthwind.example",
            "_closewise-challenge.northwind.example",
        ] {
            assert_eq!(
                normalize_domain(bad),
                Err(DomainError::Malformed),
                "{bad:?}"
            );
        }
        let long = format!("{}.example", "a".repeat(64));
        assert_eq!(normalize_domain(&long), Err(DomainError::Malformed));
        let too_long = format!("{}example", "abcdefghi.".repeat(25));
        assert!(too_long.len() > MAX_DOMAIN_LEN);
        assert_eq!(normalize_domain(&too_long), Err(DomainError::Malformed));
        for public in ["gmail.com", "Outlook.FR", "orange.fr", "nyc.rr.com"] {
            assert_eq!(
                normalize_domain(public),
                Err(DomainError::PublicMail),
                "{public}"
            );
        }
        assert_eq!(DomainError::PublicMail.code(), "public_mail_domain");
        assert_eq!(DomainError::Malformed.code(), "invalid_domain");
    }

    #[test]
    fn the_record_to_publish_and_finding_it() {
        assert_eq!(
            txt_name("northwind.example"),
            "_closewise-challenge.northwind.example"
        );
        assert_eq!(txt_value("abc123"), "closewise-domain-verification=abc123");
        let found = |rs: &[&str]| {
            record_found(
                &rs.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                "abc123",
            )
        };
        assert!(found(&[
            "v=spf1 -all",
            "closewise-domain-verification=abc123"
        ]));
        assert!(found(&[" Closewise-Domain-Verification=abc123 "]));
        assert!(!found(&["closewise-domain-verification=ABC123"]));
        assert!(!found(&["closewise-domain-verification=abc1234"]));
        assert!(!found(&["closewise-domain-verification="]));
        assert!(!found(&[]));
    }

    #[test]
    fn a_record_gone_for_seven_days_unverifies() {
        let seen = datetime!(2026-11-01 12:00 UTC);
        assert_eq!(
            recheck(true, Some(seen), None, seen + UNVERIFY_AFTER * 3),
            Recheck::Seen
        );
        assert_eq!(
            recheck(false, Some(seen), None, seen + Duration::days(6)),
            Recheck::Missing
        );
        assert_eq!(
            recheck(false, Some(seen), None, seen + UNVERIFY_AFTER),
            Recheck::Unverify
        );
        assert_eq!(
            recheck(false, None, Some(seen), seen + Duration::days(3)),
            Recheck::Missing,
            "never re-seen: counted from the verification"
        );
        assert_eq!(recheck(false, None, None, seen), Recheck::Unverify);
        assert_eq!(recheck_cutoff(seen + RECHECK_EVERY), seen);
    }

    #[test]
    fn domain_join_needs_a_verified_domain() {
        let verified = vec!["northwind.example".to_string()];
        assert!(may_enable_domain_join("NorthWind.example.", &verified));
        assert!(!may_enable_domain_join("contoso.example", &verified));
        assert!(!may_enable_domain_join("northwind.example", &[]));
        assert!(!may_enable_domain_join(
            "gmail.com",
            &["gmail.com".to_string()]
        ));
    }

    fn label() -> impl Strategy<Value = String> {
        "[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?"
    }

    proptest! {
        /// Normalising is idempotent and accepts exactly what it gives back.
        #[test]
        fn normalising_is_idempotent(input in "[ A-Za-z0-9.@_/-]{0,40}") {
            if let Ok(d) = normalize_domain(&input) {
                prop_assert_eq!(normalize_domain(&d), Ok(d.clone()));
                prop_assert_eq!(d.to_ascii_lowercase(), d.clone());
                prop_assert!(!d.ends_with('.') && d.contains('.'));
                prop_assert!(!is_public_mail_domain(&d));
            }
        }

        /// Every well-formed company name is accepted whatever its case or trailing dot.
        #[test]
        fn well_formed_names_are_accepted(labels in prop::collection::vec(label(), 1..4), dot in any::<bool>()) {
            let d = format!("{}.example", labels.join("."));
            let typed = format!("{}{}", d.to_ascii_uppercase(), if dot { "." } else { "" });
            prop_assert_eq!(normalize_domain(&typed), Ok(d));
        }

        /// Only the record with the token verifies; a domain unverifies exactly when its record has
        /// been missing for seven days.
        #[test]
        fn records_and_rechecks(token in "[a-z0-9]{8,32}", other in "[a-z0-9]{8,32}", hours in 0i64..400) {
            prop_assert!(record_found(&[txt_value(&token)], &token));
            prop_assert_eq!(record_found(&[txt_value(&other)], &token), other == token);
            let seen = datetime!(2026-11-01 0:00 UTC);
            let now = seen + Duration::hours(hours);
            let outcome = recheck(false, Some(seen), Some(seen), now);
            prop_assert_eq!(outcome == Recheck::Unverify, hours >= 7 * 24);
            prop_assert_eq!(recheck(true, Some(seen), Some(seen), now), Recheck::Seen);
        }
    }
}
