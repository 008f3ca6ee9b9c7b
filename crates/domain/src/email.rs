//! A parsed, normalised e-mail address.
//!
//! The rules are hand-written rather than taken from the `email_address` crate: that crate follows
//! RFC 5322, which allows quoted local parts, comments and IP-literal domains that no sign-up form
//! should take and that our mail path (plain SMTP, no SMTPUTF8) cannot deliver to. The rules below
//! are the common "deliverable address" subset:
//!
//! - surrounding whitespace is trimmed and the whole address is lower-cased (we treat addresses as
//!   case-insensitive so `Ana@Example.com` and `ana@example.com` are one account);
//! - at most 254 characters, exactly one `@`;
//! - local part: 1..=64 characters of RFC 5322 `atext` (ASCII letters, digits and
//!   ``!#$%&'*+-/=?^_`{|}~``) and dots, with no leading, trailing or doubled dot. Spaces, control
//!   characters, quotes, `<>`, `,`, `;`, `\` and non-ASCII are refused, which also keeps header
//!   injection out of outgoing mail;
//! - domain: at least two labels; each label 1..=63 characters of `[a-z0-9-]`, not starting or
//!   ending with `-`; the top-level label is at least 2 letters, or a punycode label (`xn--...`).

use std::fmt;

/// A syntactically valid, trimmed and lower-cased e-mail address. Deserialising parses, so an
/// `Email` read from JSON obeys the same rules.
#[derive(Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String")]
pub struct Email(String);

/// Why a raw string is not an [`Email`].
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EmailError {
    #[error("Email is required")]
    Empty,
    #[error("Please enter a valid email address")]
    Invalid,
    #[error("Email must be at most 254 characters")]
    TooLong,
}

impl Email {
    /// Longest address accepted (RFC 5321's path limit less the angle brackets).
    pub const MAX_LEN: usize = 254;
    /// Longest local part accepted (RFC 5321).
    pub const MAX_LOCAL_LEN: usize = 64;
    /// Longest domain label accepted (RFC 1035).
    pub const MAX_LABEL_LEN: usize = 63;

    /// Parses and normalises `raw` (trimmed, lower-cased).
    pub fn parse(raw: &str) -> Result<Email, EmailError> {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Err(EmailError::Empty);
        }
        if trimmed.chars().count() > Self::MAX_LEN {
            return Err(EmailError::TooLong);
        }
        let address = trimmed.to_lowercase();
        let (local, domain) = address.split_once('@').ok_or(EmailError::Invalid)?;
        if local_part_is_valid(local) && domain_is_valid(domain) {
            Ok(Email(address))
        } else {
            Err(EmailError::Invalid)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part after the `@`.
    pub fn domain(&self) -> &str {
        self.0.split_once('@').map_or("", |(_, domain)| domain)
    }
}

fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c)
}

fn local_part_is_valid(local: &str) -> bool {
    (1..=Email::MAX_LOCAL_LEN).contains(&local.len())
        && local
            .split('.')
            .all(|atom| !atom.is_empty() && atom.chars().all(is_atext))
}

fn label_is_valid(label: &str) -> bool {
    (1..=Email::MAX_LABEL_LEN).contains(&label.len())
        && label
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !label.starts_with('-')
        && !label.ends_with('-')
}

fn domain_is_valid(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    let Some(tld) = labels.last() else {
        return false;
    };
    labels.len() >= 2
        && labels.iter().all(|label| label_is_valid(label))
        && ((tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_lowercase()))
            || (tld.starts_with("xn--") && tld.len() > 4))
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Email {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Email {
    type Error = EmailError;
    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Email::parse(&raw)
    }
}

impl std::str::FromStr for Email {
    type Err = EmailError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Email::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_plain_address_is_accepted_as_is() {
        assert_eq!(
            Email::parse("ana@example.com").unwrap().as_str(),
            "ana@example.com"
        );
    }

    #[test]
    fn surrounding_whitespace_is_trimmed_and_the_address_lower_cased() {
        let email = Email::parse("  Ana.Lopez+Sales@Example.CO.uk \n").unwrap();
        assert_eq!(email.as_str(), "ana.lopez+sales@example.co.uk");
        assert_eq!(email.to_string(), "ana.lopez+sales@example.co.uk");
        assert_eq!(email.as_ref(), "ana.lopez+sales@example.co.uk");
        assert_eq!(email.domain(), "example.co.uk");
    }

    #[test]
    fn an_empty_or_blank_address_is_required() {
        assert_eq!(Email::parse(""), Err(EmailError::Empty));
        assert_eq!(Email::parse(" \t\n"), Err(EmailError::Empty));
    }

    #[test]
    fn errors_carry_the_messages_shown_to_users() {
        assert_eq!(EmailError::Empty.to_string(), "Email is required");
        assert_eq!(
            EmailError::Invalid.to_string(),
            "Please enter a valid email address"
        );
        assert_eq!(
            EmailError::TooLong.to_string(),
            "Email must be at most 254 characters"
        );
    }

    #[test]
    fn an_address_of_254_characters_is_accepted_and_255_is_too_long() {
        // 64 + 1 + 189 = 254; the domain is three 61-character labels and "com" (61*3+3+3=189).
        let label = "a".repeat(61);
        let domain = format!("{label}.{label}.{label}.com");
        let local = "b".repeat(64);
        let at_limit = format!("{local}@{domain}");
        assert_eq!(at_limit.len(), 254);
        assert!(Email::parse(&at_limit).is_ok());
        let over = format!("{local}@c{domain}");
        assert_eq!(Email::parse(&over), Err(EmailError::TooLong));
    }

    #[test]
    fn the_length_limit_counts_characters_after_trimming() {
        let label = "a".repeat(61);
        let address = format!("{}@{label}.{label}.{label}.com", "b".repeat(64));
        assert!(Email::parse(&format!("   {address}   ")).is_ok());
    }

    #[test]
    fn a_local_part_of_64_characters_is_accepted_and_65_is_refused() {
        assert!(Email::parse(&format!("{}@example.com", "a".repeat(64))).is_ok());
        assert_eq!(
            Email::parse(&format!("{}@example.com", "a".repeat(65))),
            Err(EmailError::Invalid)
        );
    }

    #[test]
    fn a_domain_label_of_63_characters_is_accepted_and_64_is_refused() {
        assert!(Email::parse(&format!("a@{}.com", "d".repeat(63))).is_ok());
        assert_eq!(
            Email::parse(&format!("a@{}.com", "d".repeat(64))),
            Err(EmailError::Invalid)
        );
    }

    #[test]
    fn common_real_world_shapes_are_accepted() {
        for ok in [
            "first.last@example.com",
            "user+tag@sub.example.org",
            "o'brien@example.ie",
            "x@a.io",
            "1234@123-go.net",
            "under_score@my-company.co",
            "user@xn--80ak6aa92e.xn--p1ai",
            "!#$%&'*+-/=?^_`{|}~@example.com",
        ] {
            assert!(Email::parse(ok).is_ok(), "{ok} should be accepted");
        }
    }

    #[test]
    fn malformed_addresses_are_refused() {
        for bad in [
            "plainaddress",
            "@example.com",
            "ana@",
            "ana@@example.com",
            "ana@bob@example.com",
            "ana@example",
            "ana@localhost",
            "ana@example.c",
            "ana@example.c0m",
            "ana@example.123",
            "ana @example.com",
            "ana@exa mple.com",
            "ana\t@example.com",
            "ana\u{0}@example.com",
            ".ana@example.com",
            "ana.@example.com",
            "an..a@example.com",
            "ana@-example.com",
            "ana@example-.com",
            "ana@.example.com",
            "ana@example.com.",
            "ana@example..com",
            "ana@exa_mple.com",
            "ana@[127.0.0.1]",
            "\"ana\"@example.com",
            "ana<script>@example.com",
            "Ana <ana@example.com>",
            "ana,bob@example.com",
            "anä@example.com",
            "ana@exämple.com",
            "ana@example.com\r\nBcc: eve@example.com",
            "ana@xn--.com",
        ] {
            assert_eq!(
                Email::parse(bad),
                Err(EmailError::Invalid),
                "{bad:?} should be refused"
            );
        }
    }

    #[test]
    fn parsing_is_available_through_from_str() {
        let email: Email = "ANA@EXAMPLE.COM".parse().unwrap();
        assert_eq!(email.as_str(), "ana@example.com");
    }

    #[test]
    fn deserialising_an_email_parses_and_normalises_it() {
        let email: Email = serde_json::from_str("\" Ana@Example.com \"").unwrap();
        assert_eq!(email.as_str(), "ana@example.com");
        let err = serde_json::from_str::<Email>("\"not an email\"").unwrap_err();
        assert!(
            err.to_string()
                .contains("Please enter a valid email address"),
            "{err}"
        );
    }

    #[test]
    fn an_email_serialises_as_a_plain_string() {
        let email = Email::parse("ana@example.com").unwrap();
        assert_eq!(
            serde_json::to_string(&email).unwrap(),
            "\"ana@example.com\""
        );
    }

    const ATEXT: &str = "[a-z0-9!#$%&'*+/=?^_`{|}~-]";

    fn local_part() -> impl Strategy<Value = String> {
        (
            proptest::string::string_regex(&format!("{ATEXT}{{1,20}}")).unwrap(),
            proptest::collection::vec(
                proptest::string::string_regex(&format!("{ATEXT}{{1,10}}")).unwrap(),
                0..3,
            ),
        )
            .prop_map(|(first, rest)| {
                std::iter::once(first)
                    .chain(rest)
                    .collect::<Vec<_>>()
                    .join(".")
            })
    }

    fn label() -> impl Strategy<Value = String> {
        proptest::string::string_regex("[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?").unwrap()
    }

    fn domain() -> impl Strategy<Value = String> {
        (
            proptest::collection::vec(label(), 1..4),
            proptest::string::string_regex("[a-z]{2,8}").unwrap(),
        )
            .prop_map(|(labels, tld)| format!("{}.{tld}", labels.join(".")))
    }

    fn valid_address() -> impl Strategy<Value = String> {
        (local_part(), domain()).prop_map(|(l, d)| format!("{l}@{d}"))
    }

    /// Upper-cases the characters selected by `mask` (cycled).
    fn mixed_case(s: &str, mask: &[bool]) -> String {
        s.chars()
            .zip(mask.iter().cycle())
            .map(|(c, upper)| if *upper { c.to_ascii_uppercase() } else { c })
            .collect()
    }

    proptest! {
        #[test]
        fn every_well_formed_address_parses_to_itself(address in valid_address()) {
            let email = Email::parse(&address).unwrap();
            prop_assert_eq!(email.as_str(), address.as_str());
        }

        #[test]
        fn case_and_surrounding_whitespace_never_change_the_parsed_address(
            address in valid_address(),
            mask in proptest::collection::vec(any::<bool>(), 1..8),
            before in "[ \t\n]{0,3}",
            after in "[ \t\n]{0,3}",
        ) {
            let raw = format!("{before}{}{after}", mixed_case(&address, &mask));
            let email = Email::parse(&raw).unwrap();
            prop_assert_eq!(email.as_str(), address.as_str());
        }

        #[test]
        fn parsing_a_parsed_address_again_gives_the_same_address(raw in "\\PC{0,40}") {
            if let Ok(email) = Email::parse(&raw) {
                prop_assert_eq!(Email::parse(email.as_str()), Ok(email.clone()));
            }
        }

        #[test]
        fn any_parsed_address_obeys_every_rule(raw in "\\PC{0,40}") {
            if let Ok(email) = Email::parse(&raw) {
                let s = email.as_str();
                prop_assert!(s.len() <= 254);
                prop_assert_eq!(s.matches('@').count(), 1);
                prop_assert!(!s.chars().any(|c| c.is_whitespace() || c.is_control()));
                prop_assert_eq!(s.to_lowercase(), s);
            }
        }

        #[test]
        fn an_address_without_an_at_sign_is_refused(address in valid_address()) {
            let raw = address.replace('@', "");
            prop_assert_eq!(Email::parse(&raw), Err(EmailError::Invalid));
        }

        #[test]
        fn an_address_with_a_second_at_sign_is_refused(address in valid_address(), extra in valid_address()) {
            prop_assert_eq!(Email::parse(&format!("{address}@{extra}")), Err(EmailError::Invalid));
        }

        #[test]
        fn a_space_or_control_character_inside_is_refused(
            address in valid_address(),
            at in any::<prop::sample::Index>(),
            bad in prop::sample::select(vec![' ', '\t', '\n', '\r', '\u{0}', '\u{7f}', '\u{1b}']),
        ) {
            // Insert strictly inside, so trimming cannot remove it.
            let chars: Vec<char> = address.chars().collect();
            let i = 1 + at.index(chars.len() - 1);
            let raw: String = chars[..i].iter().chain([bad].iter()).chain(chars[i..].iter()).collect();
            prop_assert_eq!(Email::parse(&raw), Err(EmailError::Invalid));
        }

        #[test]
        fn a_local_part_with_a_leading_trailing_or_double_dot_is_refused(
            local in local_part(),
            domain in domain(),
            which in 0..3usize,
        ) {
            let bad_local = match which {
                0 => format!(".{local}"),
                1 => format!("{local}."),
                _ => format!("{local}..x"),
            };
            prop_assert_eq!(Email::parse(&format!("{bad_local}@{domain}")), Err(EmailError::Invalid));
        }

        #[test]
        fn a_domain_without_a_dot_is_refused(local in local_part(), label in label()) {
            prop_assert_eq!(Email::parse(&format!("{local}@{label}")), Err(EmailError::Invalid));
        }

        #[test]
        fn a_label_starting_or_ending_with_a_hyphen_is_refused(
            local in local_part(),
            label in label(),
            tld in "[a-z]{2,6}",
            leading in any::<bool>(),
        ) {
            let bad = if leading { format!("-{label}") } else { format!("{label}-") };
            prop_assert_eq!(Email::parse(&format!("{local}@{bad}.{tld}")), Err(EmailError::Invalid));
        }

        #[test]
        fn a_top_level_label_of_one_letter_or_with_digits_is_refused(
            local in local_part(),
            label in label(),
            tld in "[a-z]|[a-z]{0,3}[0-9][a-z0-9]{0,3}",
        ) {
            prop_assert_eq!(Email::parse(&format!("{local}@{label}.{tld}")), Err(EmailError::Invalid));
        }

        #[test]
        fn a_character_outside_the_allowed_set_is_refused(
            local in local_part(),
            domain in domain(),
            bad in prop::sample::select(vec!['"', '(', ')', ',', ':', ';', '<', '>', '[', ']', '\\', 'é', 'ß', '日']),
            in_domain in any::<bool>(),
        ) {
            let raw = if in_domain {
                format!("{local}@{bad}{domain}")
            } else {
                format!("{local}{bad}@{domain}")
            };
            prop_assert_eq!(Email::parse(&raw), Err(EmailError::Invalid));
        }

        #[test]
        fn anything_longer_than_254_characters_is_too_long(raw in "[a-z@.]{255,300}") {
            prop_assert_eq!(Email::parse(&raw), Err(EmailError::TooLong));
        }
    }
}
