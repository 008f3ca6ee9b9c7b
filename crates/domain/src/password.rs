//! A sign-up password that meets the policy: 6..=128 characters and not a common password.
//!
//! "Common" is decided with the `zxcvbn` crate (a maintained port of Dropbox's estimator, which
//! bundles frequency lists of leaked passwords, English words, names and TV/film words). We refuse
//! a password when zxcvbn estimates at most [`COMMON_GUESS_LIMIT`] (10,000) guesses for its
//! lower-cased form. A password that is, whole, one entry of the bundled leaked-password list with
//! rank *r* is estimated at *r* + 1 guesses, so this refuses exactly:
//!
//! - the top 9,999 entries of that list, whatever their case (`Password1`, `QWERTY`, `letmein`);
//! - anything else an attacker would try as early: a single very frequent English word or first
//!   name, a keyboard walk (`qwertyu`), a repeat (`aaaaaa`, `abcabc`), a sequence (`abcdefg`,
//!   `13579`), or a recent date.
//!
//! Anything made of two or more parts (`ana-sells-2026`) is estimated above the limit by
//! construction (zxcvbn adds 10,000 for every extra part), so ordinary passphrases pass. We chose
//! this over zxcvbn's score 0 (below 1,000 guesses), which lets thousands of leaked passwords
//! through, and over its score 1 (below 1,000,000), which refuses many passwords a user reasonably
//! picks and would make the 6-character minimum of the spec meaningless.
//!
//! zxcvbn runs locally (no network); the lists are compiled into the binary. Its date scorer reads
//! the current year internally, which only shifts how recent years are scored.

use std::fmt;

/// Passwords that zxcvbn expects to crack in at most this many guesses are refused as too common.
pub const COMMON_GUESS_LIMIT: u64 = 10_000;

/// A password that meets the policy. Never printed: `Debug` shows `Password(***)` and there is no
/// `Display` or `Serialize`.
pub struct Password(String);

/// Why a raw string is not an acceptable [`Password`].
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PasswordError {
    #[error("Password must be at least 6 characters")]
    TooShort,
    #[error("Password must be at most 128 characters")]
    TooLong,
    #[error("This password is too common. Please choose another one")]
    TooCommon,
}

impl Password {
    pub const MIN_LEN: usize = 6;
    pub const MAX_LEN: usize = 128;

    /// Checks `raw` against the policy. The password is taken exactly as typed (not trimmed);
    /// its length is counted in characters, not bytes.
    pub fn parse(raw: &str) -> Result<Password, PasswordError> {
        let len = raw.chars().count();
        if len < Self::MIN_LEN {
            return Err(PasswordError::TooShort);
        }
        if len > Self::MAX_LEN {
            return Err(PasswordError::TooLong);
        }
        if is_common(raw) {
            return Err(PasswordError::TooCommon);
        }
        Ok(Password(raw.to_owned()))
    }

    /// The password itself, for hashing. Keep it out of logs.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// True when zxcvbn estimates at most [`COMMON_GUESS_LIMIT`] guesses for the lower-cased password.
pub fn is_common(raw: &str) -> bool {
    zxcvbn::zxcvbn(&raw.to_lowercase(), &[]).guesses() <= COMMON_GUESS_LIMIT
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_reasonable_password_is_accepted_and_kept_exactly_as_typed() {
        let password = Password::parse("  Tr0mbone-Lighthouse  ").unwrap();
        assert_eq!(password.expose(), "  Tr0mbone-Lighthouse  ");
    }

    #[test]
    fn debug_output_never_shows_the_password() {
        let password = Password::parse("Tr0mbone-Lighthouse").unwrap();
        let shown = format!("{password:?} {:?}", Some(&password));
        assert_eq!(shown, "Password(***) Some(Password(***))");
    }

    #[test]
    fn errors_carry_the_messages_shown_to_users() {
        assert_eq!(
            PasswordError::TooShort.to_string(),
            "Password must be at least 6 characters"
        );
        assert_eq!(
            PasswordError::TooLong.to_string(),
            "Password must be at most 128 characters"
        );
        assert_eq!(
            PasswordError::TooCommon.to_string(),
            "This password is too common. Please choose another one"
        );
    }

    #[test]
    fn five_characters_are_too_short_and_six_are_enough() {
        assert_eq!(Password::parse("").unwrap_err(), PasswordError::TooShort);
        assert_eq!(
            Password::parse("k9#Qz").unwrap_err(),
            PasswordError::TooShort
        );
        assert!(Password::parse("k9#Qzw").is_ok());
    }

    #[test]
    fn length_is_counted_in_characters_not_bytes() {
        // Five characters, fifteen bytes: still too short.
        assert_eq!(
            Password::parse("日本語文字").unwrap_err(),
            PasswordError::TooShort
        );
        // 128 characters, far more bytes: allowed.
        let long: String = "Grüße aus Köln, 東京 und Zürich! "
            .chars()
            .cycle()
            .take(128)
            .collect();
        assert_eq!(long.chars().count(), 128);
        assert!(long.len() > 140);
        assert!(Password::parse(&long).is_ok());
        assert_eq!(
            Password::parse(&format!("{long}é")).unwrap_err(),
            PasswordError::TooLong
        );
    }

    #[test]
    fn one_hundred_and_twenty_eight_characters_are_allowed_and_one_more_is_too_long() {
        let at_limit: String = "Tr0mbone-Lighthouse!".chars().cycle().take(128).collect();
        assert!(Password::parse(&at_limit).is_ok());
        let over: String = "Tr0mbone-Lighthouse!".chars().cycle().take(129).collect();
        assert_eq!(Password::parse(&over).unwrap_err(), PasswordError::TooLong);
    }

    #[test]
    fn the_most_common_leaked_passwords_are_refused_whatever_their_case() {
        for common in [
            "123456",
            "password",
            "12345678",
            "qwerty",
            "123456789",
            "111111",
            "1234567",
            "dragon",
            "123123",
            "baseball",
            "abc123",
            "football",
            "monkey",
            "letmein",
            "shadow",
            "master",
            "iloveyou",
            "trustno1",
            "sunshine",
            "princess",
            "welcome",
            "password1",
            "Password1",
            "PASSWORD",
            "QwErTy123",
            "passw0rd",
            "starwars",
            "superman",
            "1qaz2wsx",
            "qwertyuiop",
            "zaq12wsx",
            "charlie1",
            "michael1",
            "football1",
            "abcd1234",
            "changeme",
            "secret",
            "admin123",
            "hello123",
        ] {
            assert_eq!(
                Password::parse(common).unwrap_err(),
                PasswordError::TooCommon,
                "{common} should be refused"
            );
        }
    }

    #[test]
    fn leaked_passwords_down_to_rank_9999_of_the_bundled_list_are_common() {
        // Entries of zxcvbn's password list at ranks 1,000, 2,500, 5,000, 7,500, 9,000, 9,990,
        // 9,995 and 9,999.
        for leaked in [
            "1qaz2wsx3edc",
            "undertaker",
            "12345qwer",
            "tippy",
            "passions",
            "123456789qwerty",
            "volodin",
            "lizaveta",
        ] {
            assert!(is_common(leaked), "{leaked} should be common");
            assert!(
                is_common(&leaked.to_uppercase()),
                "{leaked} in capitals should be common"
            );
        }
    }

    #[test]
    fn trivial_patterns_are_refused_as_too_common() {
        for weak in [
            "aaaaaa",
            "abcdef",
            "abcabcabc",
            "987654",
            "zxcvbnm",
            "asdfghjkl",
        ] {
            assert_eq!(
                Password::parse(weak).unwrap_err(),
                PasswordError::TooCommon,
                "{weak} should be refused"
            );
        }
    }

    #[test]
    fn length_is_checked_before_commonness() {
        assert_eq!(
            Password::parse("12345").unwrap_err(),
            PasswordError::TooShort
        );
        let long_repeat = "a".repeat(129);
        assert_eq!(
            Password::parse(&long_repeat).unwrap_err(),
            PasswordError::TooLong
        );
    }

    #[test]
    fn passphrases_and_uncommon_passwords_are_accepted() {
        for ok in [
            "correct horse battery staple",
            "ana-sells-2026",
            "Closewise!Rocks",
            "k9#Qzw",
            "tangerine-otter-41",
            "my first sales call",
        ] {
            assert!(Password::parse(ok).is_ok(), "{ok} should be accepted");
        }
    }

    #[test]
    fn checking_the_longest_allowed_password_is_fast() {
        // zxcvbn's matchers are super-linear; make sure a worst-case input stays usable on sign-up.
        let inputs = [
            "a".repeat(128),
            "ab".repeat(64),
            "password".repeat(16),
            "1q2w3e4r".repeat(16),
            "Tr0mbone-Lighthouse!".chars().cycle().take(128).collect(),
        ];
        for input in inputs {
            let started = std::time::Instant::now();
            let _ = Password::parse(&input);
            let took = started.elapsed();
            assert!(
                took < std::time::Duration::from_secs(2),
                "{input} took {took:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn anything_shorter_than_six_characters_is_too_short(raw in "\\PC{0,5}") {
            prop_assert_eq!(Password::parse(&raw).unwrap_err(), PasswordError::TooShort);
        }

        #[test]
        fn anything_longer_than_128_characters_is_too_long(raw in "\\PC{129,160}") {
            prop_assert_eq!(Password::parse(&raw).unwrap_err(), PasswordError::TooLong);
        }

        #[test]
        fn every_password_of_allowed_length_is_either_accepted_verbatim_or_too_common(raw in "\\PC{6,40}") {
            match Password::parse(&raw) {
                Ok(password) => prop_assert_eq!(password.expose(), raw.as_str()),
                Err(err) => prop_assert_eq!(err, PasswordError::TooCommon),
            }
        }

        #[test]
        fn random_strings_of_ten_or_more_characters_are_accepted(raw in "[a-zA-Z0-9!@#%&*-]{10,40}") {
            prop_assert!(Password::parse(&raw).is_ok(), "{} was refused", raw);
        }

        #[test]
        fn case_never_changes_whether_a_password_is_common(raw in "[a-zA-Z0-9]{6,16}") {
            prop_assert_eq!(is_common(&raw), is_common(&raw.to_uppercase()));
        }

        #[test]
        fn a_common_password_stays_refused_in_any_case(
            common in prop::sample::select(vec!["password", "iloveyou", "sunshine", "princess", "football", "baseball", "welcome", "trustno1"]),
            mask in proptest::collection::vec(any::<bool>(), 1..8),
        ) {
            let mixed: String = common
                .chars()
                .zip(mask.iter().cycle())
                .map(|(c, upper)| if *upper { c.to_ascii_uppercase() } else { c })
                .collect();
            prop_assert_eq!(Password::parse(&mixed).unwrap_err(), PasswordError::TooCommon);
        }
    }
}
