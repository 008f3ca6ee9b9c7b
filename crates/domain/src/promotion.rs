//! Promotion codes: what a typed code must look like, whether the code Stripe knows by that name
//! can be used now (and if not, why, in words a buyer understands), and how a discount on a
//! subscription is described ("20% off until March 2027").
//!
//! Stripe keeps the codes and their coupons and is the last judge at checkout; these rules let
//! us refuse an unknown, expired or used-up code with a plain reason before sending the buyer to
//! a checkout that would fail.

use time::OffsetDateTime;

/// A promotion code as typed: trimmed, 1 to 500 letters, digits, dashes or underscores (what
/// Stripe accepts as a code). Stripe matches codes case-insensitively, so case is kept as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotionCode(String);

impl PromotionCode {
    pub fn parse(raw: &str) -> Result<Self, PromotionRefusal> {
        let code = raw.trim();
        let fits = !code.is_empty()
            && code.len() <= 500
            && code
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if fits {
            Ok(Self(code.to_owned()))
        } else {
            Err(PromotionRefusal::Unknown)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What Stripe says about a promotion code and its coupon, as far as these rules need it.
/// Times are Unix seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PromotionFacts {
    pub active: bool,
    pub expires_at: Option<i64>,
    pub max_redemptions: Option<i64>,
    pub times_redeemed: i64,
    /// The coupon's own `valid` (Stripe clears it past `redeem_by` or when used up).
    pub coupon_valid: bool,
    pub coupon_redeem_by: Option<i64>,
    pub first_time_transaction: bool,
    /// In the currency's minor units.
    pub minimum_amount: Option<i64>,
}

/// Why a promotion code cannot be used. The messages are shown to buyers as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PromotionRefusal {
    #[error("This promotion code does not exist.")]
    Unknown,
    #[error("This promotion code has expired.")]
    Expired,
    #[error("This promotion code has already been used the maximum number of times.")]
    UsedUp,
    #[error("This promotion code is only for a first purchase.")]
    FirstPurchaseOnly,
    #[error("This order does not reach the minimum amount for this promotion code.")]
    BelowMinimum,
}

impl PromotionRefusal {
    /// Every refusal is the one API error; the message says which.
    pub fn code(&self) -> &'static str {
        "invalid_promotion_code"
    }
}

/// Whether the code Stripe knows (`None`: no active code by that name) can be used at `now` by a
/// buyer who has `paid_before` (or not) on an order of `amount`. The first reason that applies
/// is given: unknown, expired, used up, then the code's restrictions.
pub fn check_promotion(
    facts: Option<&PromotionFacts>,
    now: OffsetDateTime,
    paid_before: bool,
    amount: i64,
) -> Result<(), PromotionRefusal> {
    let Some(f) = facts.filter(|f| f.active) else {
        return Err(PromotionRefusal::Unknown);
    };
    let now = now.unix_timestamp();
    let past = |t: Option<i64>| t.is_some_and(|t| now >= t);
    if past(f.expires_at) || past(f.coupon_redeem_by) {
        return Err(PromotionRefusal::Expired);
    }
    if f.max_redemptions.is_some_and(|m| f.times_redeemed >= m) || !f.coupon_valid {
        return Err(PromotionRefusal::UsedUp);
    }
    if f.first_time_transaction && paid_before {
        return Err(PromotionRefusal::FirstPurchaseOnly);
    }
    if f.minimum_amount.is_some_and(|m| amount < m) {
        return Err(PromotionRefusal::BelowMinimum);
    }
    Ok(())
}

/// How long a coupon's discount applies, in Stripe's words (`duration`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscountDuration {
    /// The first invoice only.
    Once,
    /// `duration_in_months` months, then it ends (`ends_at`).
    Repeating,
    /// As long as the subscription lasts.
    Forever,
}

impl DiscountDuration {
    /// Stripe's name exactly; `None` for one Stripe may add later.
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "once" => Some(Self::Once),
            "repeating" => Some(Self::Repeating),
            "forever" => Some(Self::Forever),
            _ => None,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Once => "once",
            Self::Repeating => "repeating",
            Self::Forever => "forever",
        }
    }
}

/// The discount on a subscription (its coupon, read from Stripe's `discounts`), as stored and
/// shown. Amounts are in the currency's minor units, times Unix seconds.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Discount {
    /// The coupon's name, if it has one.
    pub name: Option<String>,
    /// Set for a percentage coupon, else `amount_off` and `currency` are.
    pub percent_off: Option<f64>,
    pub amount_off: Option<i64>,
    pub currency: Option<String>,
    pub duration: DiscountDuration,
    /// For a `repeating` coupon: how many months.
    pub duration_in_months: Option<i64>,
    /// When it stops applying (a `repeating` coupon's end); `None` for `once` and `forever`.
    pub ends_at: Option<i64>,
}

// Stripe's percentages are never NaN.
impl Eq for Discount {}

impl Discount {
    /// The discount while it applies at `now`: none from its `ends_at` on (Stripe removes it
    /// then; a late webhook must not keep it on the dashboard).
    pub fn current(self, now: OffsetDateTime) -> Option<Self> {
        match self.ends_at {
            Some(end) if end <= now.unix_timestamp() => None,
            _ => Some(self),
        }
    }

    /// "20% off until March 2027", "$5 off once", "20% off forever" (prices written as the
    /// pricing cards write them: whole amounts without cents).
    pub fn label(&self) -> String {
        let off = match (self.percent_off, self.amount_off) {
            (Some(p), _) if p.fract() == 0.0 => format!("{p:.0}% off"),
            (Some(p), _) => format!("{p}% off"),
            (None, Some(amount)) => {
                format!(
                    "{} off",
                    money(amount, self.currency.as_deref().unwrap_or("usd"))
                )
            }
            (None, None) => "A discount".to_owned(),
        };
        let end = self
            .ends_at
            .and_then(|t| OffsetDateTime::from_unix_timestamp(t).ok());
        match (self.duration, end, self.duration_in_months) {
            (DiscountDuration::Once, _, _) => format!("{off} once"),
            (DiscountDuration::Forever, _, _) => format!("{off} forever"),
            (DiscountDuration::Repeating, Some(end), _) => {
                format!("{off} until {} {}", end.month(), end.year())
            }
            (DiscountDuration::Repeating, None, Some(1)) => format!("{off} for 1 month"),
            (DiscountDuration::Repeating, None, Some(n)) => format!("{off} for {n} months"),
            (DiscountDuration::Repeating, None, None) => off,
        }
    }
}

/// `$5`, `$4.50`, `€20`, `300 JPY`-style amounts: cents only when there are some.
fn money(amount: i64, currency: &str) -> String {
    let cents = (amount % 100).abs();
    let number = if cents == 0 {
        format!("{}", amount / 100)
    } else {
        format!("{}.{cents:02}", amount / 100)
    };
    match currency.to_ascii_lowercase().as_str() {
        "usd" => format!("${number}"),
        "eur" => format!("€{number}"),
        "gbp" => format!("£{number}"),
        other => format!("{number} {}", other.to_uppercase()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NOW: i64 = 1_800_000_000;

    fn at(t: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(t).unwrap()
    }

    fn live() -> PromotionFacts {
        PromotionFacts {
            active: true,
            coupon_valid: true,
            ..Default::default()
        }
    }

    #[test]
    fn a_live_code_may_be_used() {
        assert_eq!(check_promotion(Some(&live()), at(NOW), true, 2000), Ok(()));
    }

    #[test]
    fn each_reason_is_named_and_the_first_one_wins() {
        let cases = [
            ("unknown", None, PromotionRefusal::Unknown),
            (
                "inactive",
                Some(PromotionFacts {
                    active: false,
                    ..live()
                }),
                PromotionRefusal::Unknown,
            ),
            (
                "expired at this second",
                Some(PromotionFacts {
                    expires_at: Some(NOW),
                    ..live()
                }),
                PromotionRefusal::Expired,
            ),
            (
                "coupon past redeem_by",
                Some(PromotionFacts {
                    coupon_redeem_by: Some(NOW - 1),
                    ..live()
                }),
                PromotionRefusal::Expired,
            ),
            (
                "used up",
                Some(PromotionFacts {
                    max_redemptions: Some(3),
                    times_redeemed: 3,
                    ..live()
                }),
                PromotionRefusal::UsedUp,
            ),
            (
                "coupon used up",
                Some(PromotionFacts {
                    coupon_valid: false,
                    ..live()
                }),
                PromotionRefusal::UsedUp,
            ),
            (
                "expired and used up",
                Some(PromotionFacts {
                    expires_at: Some(NOW - 5),
                    max_redemptions: Some(1),
                    times_redeemed: 1,
                    ..live()
                }),
                PromotionRefusal::Expired,
            ),
            (
                "first purchase only",
                Some(PromotionFacts {
                    first_time_transaction: true,
                    ..live()
                }),
                PromotionRefusal::FirstPurchaseOnly,
            ),
            (
                "below minimum",
                Some(PromotionFacts {
                    minimum_amount: Some(2001),
                    ..live()
                }),
                PromotionRefusal::BelowMinimum,
            ),
        ];
        for (case, facts, want) in cases {
            assert_eq!(
                check_promotion(facts.as_ref(), at(NOW), true, 2000),
                Err(want),
                "{case}"
            );
        }
    }

    #[test]
    fn a_code_is_live_until_the_second_it_expires_and_while_redemptions_remain() {
        let f = PromotionFacts {
            expires_at: Some(NOW + 1),
            max_redemptions: Some(3),
            times_redeemed: 2,
            first_time_transaction: true,
            minimum_amount: Some(2000),
            ..live()
        };
        assert_eq!(check_promotion(Some(&f), at(NOW), false, 2000), Ok(()));
    }

    #[test]
    fn every_refusal_is_invalid_promotion_code_with_a_reason_in_words() {
        assert_eq!(PromotionRefusal::Expired.code(), "invalid_promotion_code");
        assert_eq!(
            PromotionRefusal::UsedUp.to_string(),
            "This promotion code has already been used the maximum number of times."
        );
    }

    fn discount(duration: DiscountDuration) -> Discount {
        Discount {
            name: Some("Launch".into()),
            percent_off: Some(20.0),
            amount_off: None,
            currency: None,
            duration,
            duration_in_months: None,
            ends_at: None,
        }
    }

    #[test]
    fn discounts_are_described_as_the_dashboard_says_them() {
        // 2027-03-15T00:00:00Z
        let march_2027 = 1_805_068_800;
        let dollars = |amount| Discount {
            percent_off: None,
            amount_off: Some(amount),
            currency: Some("usd".into()),
            ..discount(DiscountDuration::Once)
        };
        let cases = [
            (
                Discount {
                    duration_in_months: Some(4),
                    ends_at: Some(march_2027),
                    ..discount(DiscountDuration::Repeating)
                },
                "20% off until March 2027",
            ),
            (dollars(500), "$5 off once"),
            (dollars(450), "$4.50 off once"),
            (discount(DiscountDuration::Forever), "20% off forever"),
            (
                Discount {
                    percent_off: Some(12.5),
                    ..discount(DiscountDuration::Forever)
                },
                "12.5% off forever",
            ),
            (
                Discount {
                    duration_in_months: Some(3),
                    ..discount(DiscountDuration::Repeating)
                },
                "20% off for 3 months",
            ),
            (
                Discount {
                    currency: Some("eur".into()),
                    duration: DiscountDuration::Forever,
                    ..dollars(2000)
                },
                "€20 off forever",
            ),
        ];
        for (d, want) in cases {
            assert_eq!(d.label(), want);
        }
    }

    #[test]
    fn a_discount_is_current_until_the_second_it_ends() {
        let ending = Discount {
            ends_at: Some(NOW + 1),
            ..discount(DiscountDuration::Repeating)
        };
        assert_eq!(ending.clone().current(at(NOW)), Some(ending.clone()));
        assert_eq!(ending.current(at(NOW + 1)), None);
        let forever = discount(DiscountDuration::Forever);
        assert!(forever.current(at(i64::from(i32::MAX))).is_some());
    }

    #[test]
    fn durations_are_stripes_names() {
        for d in [
            DiscountDuration::Once,
            DiscountDuration::Repeating,
            DiscountDuration::Forever,
        ] {
            assert_eq!(DiscountDuration::parse(d.as_str()), Some(d));
            assert_eq!(serde_json::to_value(d).unwrap(), d.as_str());
        }
        assert_eq!(DiscountDuration::parse("weekly"), None);
    }

    proptest! {
        #[test]
        fn codes_of_letters_digits_dashes_and_underscores_parse(code in "[A-Za-z0-9_-]{1,60}") {
            let padded = format!("  {code} ");
            let parsed = PromotionCode::parse(&padded).unwrap();
            prop_assert_eq!(parsed.as_str(), code.as_str());
        }

        #[test]
        fn codes_with_anything_else_are_unknown(code in "[A-Z]{1,5}[ !@#%./]{1,3}[A-Z]{1,5}") {
            prop_assert_eq!(PromotionCode::parse(&code), Err(PromotionRefusal::Unknown));
        }
    }
}
