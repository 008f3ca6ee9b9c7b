//! Recovery codes: 10 single-use codes shown once when an authenticator app is confirmed, written
//! `xxxxx-xxxxx` in a lowercase alphabet without look-alikes (no 0/o, 1/i/l). Typed input is
//! trimmed, case- and dash-insensitive.

/// How many codes a set holds.
pub const COUNT: usize = 10;
/// Characters of a code, dash excluded.
pub const LEN: usize = 10;
/// The alphabet: digits 2-9 and letters without i, l, o (31 symbols, ~49.5 bits per code).
pub const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";

/// A code from `LEN` symbol indices (each taken modulo the alphabet), written `xxxxx-xxxxx`.
pub fn format(indices: &[u8; LEN]) -> String {
    let chars: String = indices
        .iter()
        .map(|&i| ALPHABET[i as usize % ALPHABET.len()] as char)
        .collect();
    format!("{}-{}", &chars[..LEN / 2], &chars[LEN / 2..])
}

/// The canonical form of typed input (lowercase, no dashes or spaces), or `None` when it cannot
/// be a recovery code.
pub fn normalize(raw: &str) -> Option<String> {
    let code: String = raw
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    (code.len() == LEN && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_two_groups_of_five_from_the_alphabet() {
        let code = format(&[0, 1, 2, 3, 4, 5, 6, 7, 30, 31]);
        assert_eq!(code, "23456-789z2");
        assert_eq!(normalize(&code).as_deref(), Some("23456789z2"));
    }

    #[test]
    fn input_is_trimmed_and_case_and_dash_insensitive() {
        for raw in [
            "abcde-fghjk",
            " ABCDE-FGHJK ",
            "abcdefghjk",
            "ab-cde fg-hjk",
        ] {
            assert_eq!(normalize(raw).as_deref(), Some("abcdefghjk"), "{raw:?}");
        }
    }

    #[test]
    fn other_input_is_not_a_recovery_code() {
        for raw in [
            "",
            "123456",
            "abcde-fghj",
            "abcde-fghjkm",
            "abcde-fghj0",
            "abcde-fghjl",
            "abcdé-fghjk",
        ] {
            assert_eq!(normalize(raw), None, "{raw:?}");
        }
    }
}
