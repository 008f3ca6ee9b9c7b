//! How a team may buy seats beyond paying by card at once: a free trial ("Try it with your team
//! free for 14 days", the card taken up front, once per team and per owner) and paying by
//! invoice (10 seats or more, billed yearly, due 30 days after it is sent). Pure rules;
//! `closewise_core::teams::billing` applies them.

use crate::billing_interval::Interval;

/// The length of a team's free trial.
pub const TRIAL_DAYS: u32 = 14;
/// The fewest seats a team may pay for by invoice.
pub const INVOICE_MIN_SEATS: u32 = 10;
/// Days an invoice is due after it is sent.
pub const INVOICE_DAYS_UNTIL_DUE: u32 = 30;

/// How the team pays: by card on Stripe's checkout page (the default), or by invoice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collection {
    Card,
    Invoice,
}

/// A `collection` other than `card` or `invoice`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("The collection must be card or invoice.")]
pub struct InvalidCollection;

impl InvalidCollection {
    pub fn code(&self) -> &'static str {
        "invalid_collection"
    }
}

impl Collection {
    pub fn parse(raw: &str) -> Result<Collection, InvalidCollection> {
        match raw {
            "card" => Ok(Collection::Card),
            "invoice" => Ok(Collection::Invoice),
            _ => Err(InvalidCollection),
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Collection::Card => "card",
            Collection::Invoice => "invoice",
        }
    }
}

/// Why a team may not buy the way it asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PurchaseRefusal {
    /// The team, or its owner with another team, had its free trial already.
    #[error("Your team has already had its free trial. Buy seats to keep going.")]
    TrialAlreadyUsed,
    /// Paying by invoice is for 10 seats or more, billed yearly.
    #[error("Paying by invoice needs at least 10 seats, billed yearly.")]
    InvoiceNotAllowed,
    /// A trial takes the card up front: it cannot be paid by invoice.
    #[error("A free trial is paid by card. Pay by invoice without a trial.")]
    TrialNeedsCard,
}

impl PurchaseRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            PurchaseRefusal::TrialAlreadyUsed => "trial_already_used",
            PurchaseRefusal::InvoiceNotAllowed => "invoice_not_allowed",
            PurchaseRefusal::TrialNeedsCard => "trial_needs_card",
        }
    }
}

/// Whether `seats` billed every `interval` may be paid by invoice.
pub fn may_pay_by_invoice(seats: u32, interval: Interval) -> bool {
    seats >= INVOICE_MIN_SEATS && interval == Interval::Year
}

/// What a team's purchase is: a trial only once (`had_trial`: the team, or another team of its
/// owner, had one), and by invoice only as [`may_pay_by_invoice`] allows and never with a trial.
pub fn decide_purchase(
    seats: u32,
    interval: Interval,
    collection: Collection,
    trial: bool,
    had_trial: bool,
) -> Result<(), PurchaseRefusal> {
    if trial && collection == Collection::Invoice {
        return Err(PurchaseRefusal::TrialNeedsCard);
    }
    if trial && had_trial {
        return Err(PurchaseRefusal::TrialAlreadyUsed);
    }
    if collection == Collection::Invoice && !may_pay_by_invoice(seats, interval) {
        return Err(PurchaseRefusal::InvoiceNotAllowed);
    }
    Ok(())
}

/// "December 13, 2026": a day as the team page and the mails write it.
pub fn long_date(unix: i64) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    match time::OffsetDateTime::from_unix_timestamp(unix) {
        Ok(d) => format!(
            "{} {}, {}",
            MONTHS[usize::from(u8::from(d.month())) - 1],
            d.day(),
            d.year()
        ),
        Err(_) => unix.to_string(),
    }
}

/// The owner's mail when Stripe says the team's trial ends in three days: (subject, text).
pub fn trial_ends_notice(team: &str, seats: u32, trial_end: i64) -> (String, String) {
    let day = long_date(trial_end);
    (
        format!("The free trial of {team} ends on {day}"),
        format!(
            "The free trial of {team} ends on {day}. Then its {seats} seats are charged to the card \
             given at checkout, and the team stays on Pro. To change the seats or the card, or to \
             cancel before you are charged, open the team page."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ten_seats_or_more_billed_yearly_may_be_paid_by_invoice() {
        assert!(may_pay_by_invoice(10, Interval::Year));
        assert!(may_pay_by_invoice(500, Interval::Year));
        assert!(!may_pay_by_invoice(9, Interval::Year));
        assert!(!may_pay_by_invoice(10, Interval::Month));
    }

    #[test]
    fn a_trial_is_once_and_by_card() {
        let card = Collection::Card;
        assert_eq!(
            decide_purchase(2, Interval::Month, card, true, false),
            Ok(())
        );
        assert_eq!(
            decide_purchase(2, Interval::Month, card, true, true),
            Err(PurchaseRefusal::TrialAlreadyUsed)
        );
        // Buying without a trial is fine after one.
        assert_eq!(
            decide_purchase(2, Interval::Month, card, false, true),
            Ok(())
        );
        assert_eq!(
            decide_purchase(12, Interval::Year, Collection::Invoice, true, false),
            Err(PurchaseRefusal::TrialNeedsCard)
        );
    }

    #[test]
    fn an_invoice_outside_the_rule_is_refused_with_its_code() {
        let refused = decide_purchase(9, Interval::Year, Collection::Invoice, false, false);
        assert_eq!(refused, Err(PurchaseRefusal::InvoiceNotAllowed));
        assert_eq!(refused.unwrap_err().code(), "invoice_not_allowed");
        assert_eq!(
            decide_purchase(10, Interval::Year, Collection::Invoice, false, true),
            Ok(())
        );
    }

    #[test]
    fn collections_parse_by_their_names_only() {
        assert_eq!(Collection::parse("card"), Ok(Collection::Card));
        assert_eq!(Collection::parse("invoice"), Ok(Collection::Invoice));
        assert_eq!(Collection::parse("Invoice"), Err(InvalidCollection));
        assert_eq!(Collection::parse(""), Err(InvalidCollection));
    }

    #[test]
    fn the_trial_mail_names_the_team_the_day_and_the_seats() {
        // 2026-12-13T10:00:00Z
        let (subject, text) = trial_ends_notice("Acme Sales", 3, 1_797_156_000);
        assert_eq!(
            subject,
            "The free trial of Acme Sales ends on December 13, 2026"
        );
        assert!(text.contains("its 3 seats are charged"), "{text}");
        assert_eq!(long_date(1_795_305_600), "November 22, 2026");
    }

    proptest! {
        #[test]
        fn paying_by_card_is_never_refused_without_a_trial(seats in 1u32..=10_000, yearly: bool, had: bool) {
            let interval = if yearly { Interval::Year } else { Interval::Month };
            prop_assert_eq!(decide_purchase(seats, interval, Collection::Card, false, had), Ok(()));
        }

        #[test]
        fn an_invoice_is_allowed_exactly_from_ten_yearly_seats(seats in 1u32..=10_000, yearly: bool) {
            let interval = if yearly { Interval::Year } else { Interval::Month };
            let allowed = decide_purchase(seats, interval, Collection::Invoice, false, false).is_ok();
            prop_assert_eq!(allowed, seats >= 10 && yearly);
        }
    }
}
