//! What Closewise sells: one subscription, "Unlimited Sales Copilot", at 20 USD a month or 200 USD
//! a year (two months free), and the Free Trial before it. The pricing page shows exactly this
//! (`GET /api/products`, and the snapshot of that answer the prerendered pages are built from).
//!
//! The Stripe price ids come from configuration (they differ between Stripe accounts and the
//! local mock), so the catalogue is built from them rather than hard-coding them.

use crate::billing_interval::Interval;
use crate::plan::{FreeTrialLimits, FREE_TRIAL};

/// One thing a user can buy, as the pricing page and checkout see it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Product {
    pub id: String,
    #[serde(rename = "priceId")]
    pub price_id: String,
    pub name: String,
    pub description: String,
    pub mode: CheckoutMode,
    /// Whole currency units (20 = 20.00).
    pub price: u32,
    /// ISO 4217, lower case as Stripe writes it.
    pub currency: String,
    /// Billing interval for subscriptions ("month" or "year"); None for one-off payments.
    pub interval: Option<String>,
    /// Months of the monthly price saved by paying for a year at once (0 for the monthly price).
    pub months_free: u32,
    /// What it includes, as the pricing card lists it.
    pub features: Vec<String>,
}

/// The Free Trial as the pricing page shows it: nothing to buy, what it includes.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FreeTrialOffer {
    pub name: String,
    pub features: Vec<String>,
}

/// How a product is bought: a recurring subscription or a one-off payment (Stripe's checkout modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckoutMode {
    Subscription,
    Payment,
}

impl CheckoutMode {
    pub fn as_str(&self) -> &'static str {
        match self {
            CheckoutMode::Subscription => "subscription",
            CheckoutMode::Payment => "payment",
        }
    }
}

pub const PRODUCT_ID: &str = "prod_closewise_unlimited";
pub const DEFAULT_PRICE_ID: &str = "price_closewise_monthly";
pub const DEFAULT_YEARLY_PRICE_ID: &str = "price_closewise_yearly";
/// The monthly price in cents, as Stripe amounts are written.
pub const PRICE_CENTS: i64 = 2000;
/// The yearly price in cents: ten months' worth.
pub const YEARLY_PRICE_CENTS: i64 = 20_000;
pub const PRODUCT_NAME: &str = "Unlimited Sales Copilot";
pub const PRODUCT_DESCRIPTION: &str = "Unlimited live AI hints on every sales call, with advanced \
     insights, objection handling, follow-up email drafts, CRM integrations and priority support.";

/// What the monthly plan includes.
pub const PRODUCT_FEATURES: [&str; 4] = [
    "Unlimited usage",
    "Advanced AI insights",
    "Priority support",
    "CRM integrations",
];
pub const FREE_TRIAL_NAME: &str = "Free Trial";

/// The Free Trial: its limits (`plan::FREE_TRIAL`) first, in words.
pub fn free_trial() -> FreeTrialOffer {
    let FreeTrialLimits {
        calls,
        minutes_per_call,
    } = FREE_TRIAL;
    FreeTrialOffer {
        name: FREE_TRIAL_NAME.to_owned(),
        features: vec![
            format!("{calls} calls of {minutes_per_call} minutes each"),
            "Basic insights".to_owned(),
            "Community support".to_owned(),
        ],
    }
}

/// The Stripe prices the plan is sold under, by interval (from configuration).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PriceIds<'a> {
    pub monthly: &'a str,
    pub yearly: &'a str,
}

impl PriceIds<'static> {
    /// The prices stripe-mock seeds.
    pub const DEFAULT: PriceIds<'static> = PriceIds {
        monthly: DEFAULT_PRICE_ID,
        yearly: DEFAULT_YEARLY_PRICE_ID,
    };
}

impl<'a> PriceIds<'a> {
    pub fn of(&self, interval: Interval) -> &'a str {
        match interval {
            Interval::Month => self.monthly,
            Interval::Year => self.yearly,
        }
    }

    /// The interval `price_id` bills by, if it is one of these prices.
    pub fn interval_of(&self, price_id: &str) -> Option<Interval> {
        Interval::ALL.into_iter().find(|i| self.of(*i) == price_id)
    }
}

/// The catalogue: the plan by the month, then by the year.
pub fn catalogue(prices: PriceIds<'_>) -> Vec<Product> {
    let months_free = (12 * PRICE_CENTS - YEARLY_PRICE_CENTS) / PRICE_CENTS;
    [
        (Interval::Month, PRICE_CENTS, 0),
        (Interval::Year, YEARLY_PRICE_CENTS, months_free),
    ]
    .into_iter()
    .map(|(interval, cents, months_free)| Product {
        id: PRODUCT_ID.to_owned(),
        price_id: prices.of(interval).to_owned(),
        name: PRODUCT_NAME.to_owned(),
        description: PRODUCT_DESCRIPTION.to_owned(),
        mode: CheckoutMode::Subscription,
        price: u32::try_from(cents / 100).expect("the price fits in u32"),
        currency: "usd".to_owned(),
        interval: Some(interval.as_str().to_owned()),
        months_free: u32::try_from(months_free).expect("a few months"),
        features: PRODUCT_FEATURES.map(str::to_owned).to_vec(),
    })
    .collect()
}

/// The product sold under `price_id`, if any.
pub fn find_by_price<'a>(products: &'a [Product], price_id: &str) -> Option<&'a Product> {
    products.iter().find(|product| product.price_id == price_id)
}

/// Whether two prices sell the same plan (the same product of the catalogue): a subscriber to
/// one already has what the other sells.
pub fn same_plan(products: &[Product], a: &str, b: &str) -> bool {
    a == b
        || matches!(
            (find_by_price(products, a), find_by_price(products, b)),
            (Some(x), Some(y)) if x.id == y.id
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_catalogue_sells_the_plan_monthly_at_twenty_dollars_first() {
        let products = catalogue(PriceIds::DEFAULT);
        assert_eq!(products.len(), 2);
        let p = &products[0];
        assert_eq!(p.months_free, 0);
        assert_eq!(p.id, "prod_closewise_unlimited");
        assert_eq!(p.price_id, "price_closewise_monthly");
        assert_eq!(p.name, "Unlimited Sales Copilot");
        assert_eq!(p.mode, CheckoutMode::Subscription);
        assert_eq!(p.price, 20);
        assert_eq!(i64::from(p.price) * 100, PRICE_CENTS);
        assert_eq!(p.currency, "usd");
        assert_eq!(p.interval.as_deref(), Some("month"));
        assert_eq!(
            p.features,
            [
                "Unlimited usage",
                "Advanced AI insights",
                "Priority support",
                "CRM integrations"
            ]
        );
        assert!(p.description.ends_with('.') && p.description.len() > 40);
        assert!(
            !p.description.contains("  "),
            "no doubled spaces from the line continuation"
        );
    }

    #[test]
    fn the_catalogue_sells_the_same_plan_yearly_at_two_hundred_dollars_two_months_free() {
        let products = catalogue(PriceIds::DEFAULT);
        let (monthly, yearly) = (&products[0], &products[1]);
        assert_eq!(yearly.id, monthly.id);
        assert_eq!(yearly.price_id, "price_closewise_yearly");
        assert_eq!(yearly.price, 200);
        assert_eq!(i64::from(yearly.price) * 100, YEARLY_PRICE_CENTS);
        assert_eq!(yearly.interval.as_deref(), Some("year"));
        assert_eq!(yearly.months_free, 2);
        assert_eq!(
            i64::from(12 - yearly.months_free) * PRICE_CENTS,
            YEARLY_PRICE_CENTS
        );
        assert_eq!(
            (&yearly.name, &yearly.features, yearly.mode),
            (&monthly.name, &monthly.features, monthly.mode)
        );
    }

    #[test]
    fn each_configured_price_names_its_interval() {
        let prices = PriceIds {
            monthly: "price_m",
            yearly: "price_y",
        };
        assert_eq!(prices.interval_of("price_m"), Some(Interval::Month));
        assert_eq!(prices.interval_of("price_y"), Some(Interval::Year));
        assert_eq!(prices.interval_of("price_other"), None);
        assert_eq!(prices.of(Interval::Year), "price_y");
    }

    #[test]
    fn the_monthly_and_yearly_prices_sell_the_same_plan() {
        let products = catalogue(PriceIds::DEFAULT);
        assert!(same_plan(
            &products,
            DEFAULT_PRICE_ID,
            DEFAULT_YEARLY_PRICE_ID
        ));
        assert!(same_plan(
            &products,
            DEFAULT_YEARLY_PRICE_ID,
            DEFAULT_YEARLY_PRICE_ID
        ));
        assert!(same_plan(&products, "price_x", "price_x"));
        assert!(!same_plan(&products, "price_x", DEFAULT_PRICE_ID));
    }

    #[test]
    fn the_free_trial_lists_its_limits_first() {
        let trial = free_trial();
        assert_eq!(trial.name, "Free Trial");
        assert_eq!(
            trial.features,
            [
                "5 calls of 5 minutes each",
                "Basic insights",
                "Community support"
            ]
        );
    }

    #[test]
    fn the_catalogue_uses_the_configured_price_id() {
        let products = catalogue(PriceIds {
            monthly: "price_1QabcLive",
            yearly: "price_1QyearLive",
        });
        assert_eq!(products[0].price_id, "price_1QabcLive");
        assert_eq!(products[1].price_id, "price_1QyearLive");
    }

    #[test]
    fn a_product_serialises_with_a_camel_case_price_id_and_lower_case_mode() {
        let prices = PriceIds {
            monthly: "price_x",
            yearly: "price_y",
        };
        let json = serde_json::to_value(&catalogue(prices)[0]).unwrap();
        assert_eq!(json["priceId"], "price_x");
        assert_eq!(json["mode"], "subscription");
        assert_eq!(json["price"], 20);
        assert_eq!(json["interval"], "month");
        assert!(json.get("price_id").is_none());
    }

    #[test]
    fn checkout_modes_use_stripes_names() {
        assert_eq!(CheckoutMode::Subscription.as_str(), "subscription");
        assert_eq!(CheckoutMode::Payment.as_str(), "payment");
        assert_eq!(
            serde_json::from_str::<CheckoutMode>("\"payment\"").unwrap(),
            CheckoutMode::Payment
        );
        assert!(serde_json::from_str::<CheckoutMode>("\"setup\"").is_err());
    }

    #[test]
    fn a_product_is_found_by_its_price_and_an_unknown_price_finds_nothing() {
        let products = catalogue(PriceIds::DEFAULT);
        assert_eq!(
            find_by_price(&products, DEFAULT_PRICE_ID),
            Some(&products[0])
        );
        assert_eq!(
            find_by_price(&products, DEFAULT_YEARLY_PRICE_ID),
            Some(&products[1])
        );
        assert_eq!(find_by_price(&products, "price_other"), None);
        assert_eq!(find_by_price(&products, ""), None);
        assert_eq!(find_by_price(&[], DEFAULT_PRICE_ID), None);
    }

    proptest! {
        #[test]
        fn only_the_exact_configured_prices_are_found(configured in "price_[A-Za-z0-9]{1,24}", asked in "\\PC{0,30}") {
            let products = catalogue(PriceIds { monthly: &configured, yearly: "price_yearly" });
            prop_assert!(find_by_price(&products, &configured).is_some());
            prop_assert_eq!(
                find_by_price(&products, &asked).is_some(),
                asked == configured || asked == "price_yearly"
            );
        }
    }
}
