//! Stripe's test cards and the checks the hosted pages run on what was typed.

use serde::{Deserialize, Serialize};

/// A card that passed the form checks (not necessarily one that can be charged).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    pub brand: String,
    pub last4: String,
    pub exp_month: i64,
    pub exp_year: i64,
    pub funding: String,
}

/// What happens when a valid-looking card is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behaviour {
    Succeeds,
    Declined,
    InsufficientFunds,
    /// 4000 0000 0000 0341: attaching works, every charge is declined (for renewal failures).
    AttachesThenFails,
}

pub const DECLINED: &str = "Your card was declined.";
pub const INSUFFICIENT_FUNDS: &str = "Your card has insufficient funds.";
pub const INVALID_NUMBER: &str = "Your card number is invalid.";
pub const INCOMPLETE_NUMBER: &str = "Your card number is incomplete.";
pub const INCOMPLETE_EXPIRY: &str = "Your card's expiration date is incomplete.";
pub const INVALID_EXPIRY_MONTH: &str = "Your card's expiration month is invalid.";
pub const PAST_EXPIRY: &str = "Your card's expiration date is in the past.";
pub const INCOMPLETE_CVC: &str = "Your card's security code is incomplete.";

/// The test numbers this mock knows, as (digits, brand, behaviour).
const TEST_CARDS: &[(&str, &str, Behaviour)] = &[
    ("4242424242424242", "visa", Behaviour::Succeeds),
    ("5555555555554444", "mastercard", Behaviour::Succeeds),
    ("378282246310005", "amex", Behaviour::Succeeds),
    ("4000000000000002", "visa", Behaviour::Declined),
    ("4000000000009995", "visa", Behaviour::InsufficientFunds),
    ("4000000000000341", "visa", Behaviour::AttachesThenFails),
];

/// Checks the typed card against the clock's `(year, month)`; on success returns the card and
/// how it behaves when charged. Errors are the messages Stripe's hosted page shows.
pub fn check(
    number: &str,
    expiry: &str,
    cvc: &str,
    today: (i64, i64),
) -> Result<(Card, Behaviour), &'static str> {
    let digits: String = number
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
    if digits.is_empty() {
        return Err(INCOMPLETE_NUMBER);
    }
    let Some((_, brand, behaviour)) = TEST_CARDS.iter().find(|(n, _, _)| *n == digits) else {
        return Err(INVALID_NUMBER);
    };
    let (exp_month, exp_year) = parse_expiry(expiry)?;
    if (exp_year, exp_month) < today {
        return Err(PAST_EXPIRY);
    }
    let cvc = cvc.trim();
    let cvc_len = if *brand == "amex" { 4 } else { 3 };
    if cvc.len() != cvc_len || !cvc.chars().all(|c| c.is_ascii_digit()) {
        return Err(INCOMPLETE_CVC);
    }
    let card = Card {
        brand: (*brand).to_owned(),
        last4: digits[digits.len() - 4..].to_owned(),
        exp_month,
        exp_year,
        funding: "credit".to_owned(),
    };
    Ok((card, *behaviour))
}

/// Accepts `MM / YY`, `MM/YY`, `MMYY`, `MM / YYYY`.
fn parse_expiry(raw: &str) -> Result<(i64, i64), &'static str> {
    let compact: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    let (month, year) = match compact.split_once('/') {
        Some((m, y)) => (m.to_owned(), y.to_owned()),
        None if compact.len() == 4 || compact.len() == 6 => {
            (compact[..2].to_owned(), compact[2..].to_owned())
        }
        None => return Err(INCOMPLETE_EXPIRY),
    };
    let all_digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if !all_digits(&month) || !all_digits(&year) || !(year.len() == 2 || year.len() == 4) {
        return Err(INCOMPLETE_EXPIRY);
    }
    let month: i64 = month.parse().map_err(|_| INCOMPLETE_EXPIRY)?;
    if !(1..=12).contains(&month) {
        return Err(INVALID_EXPIRY_MONTH);
    }
    let mut year: i64 = year.parse().map_err(|_| INCOMPLETE_EXPIRY)?;
    if year < 100 {
        year += 2000;
    }
    Ok((month, year))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TODAY: (i64, i64) = (2026, 11);

    #[test]
    fn test_cards_with_spaces_are_recognised() {
        let (card, b) = check("4242 4242 4242 4242", "12 / 30", "123", TODAY).unwrap();
        assert_eq!(
            (card.brand.as_str(), card.last4.as_str(), b),
            ("visa", "4242", Behaviour::Succeeds)
        );
        let (card, _) = check("3782 822463 10005", "01/31", "1234", TODAY).unwrap();
        assert_eq!((card.brand.as_str(), card.last4.as_str()), ("amex", "0005"));
        let (card, _) = check("5555555555554444", "0230", "999", TODAY).unwrap();
        assert_eq!((card.exp_month, card.exp_year), (2, 2030));
    }

    #[test]
    fn bad_inputs_give_stripes_messages() {
        let cases = [
            ("1234 5678 9012 3456", "12/30", "123", INVALID_NUMBER),
            ("", "12/30", "123", INCOMPLETE_NUMBER),
            ("4242424242424242", "", "123", INCOMPLETE_EXPIRY),
            ("4242424242424242", "13/30", "123", INVALID_EXPIRY_MONTH),
            ("4242424242424242", "10/26", "123", PAST_EXPIRY),
            ("4242424242424242", "12/30", "", INCOMPLETE_CVC),
            ("378282246310005", "12/30", "123", INCOMPLETE_CVC),
        ];
        for (number, exp, cvc, want) in cases {
            assert_eq!(
                check(number, exp, cvc, TODAY).unwrap_err(),
                want,
                "case {number} {exp} {cvc}"
            );
        }
    }

    #[test]
    fn the_current_month_is_not_expired() {
        assert!(check("4242424242424242", "11/26", "123", TODAY).is_ok());
    }
}
