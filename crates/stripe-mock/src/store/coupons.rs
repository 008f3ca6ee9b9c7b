//! Coupons and the promotion codes customers type for them. A coupon says how much comes off and
//! for how long; a promotion code is a customer-facing name for one, with its own limits.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{Metadata, Store};
use crate::error::ApiError;
use crate::expand::Expand;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Coupon {
    pub id: String,
    pub created: i64,
    pub name: Option<String>,
    pub percent_off: Option<f64>,
    pub amount_off: Option<i64>,
    pub currency: Option<String>,
    /// `once`, `repeating` (with `duration_in_months`) or `forever`.
    pub duration: String,
    pub duration_in_months: Option<i64>,
    pub max_redemptions: Option<i64>,
    pub redeem_by: Option<i64>,
    pub times_redeemed: i64,
    pub metadata: Metadata,
}

impl Coupon {
    /// Whether it can still be applied: not past `redeem_by`, not redeemed `max_redemptions` times.
    pub fn valid(&self, now: i64) -> bool {
        self.redeem_by.is_none_or(|t| now < t)
            && self.max_redemptions.is_none_or(|m| self.times_redeemed < m)
    }

    /// What comes off `amount` (one line, or the subtotal for an amount coupon), never more
    /// than it; percentages round half away from zero like Stripe.
    pub fn discount_on(&self, amount: i64) -> i64 {
        match (self.percent_off, self.amount_off) {
            (Some(pct), _) => ((amount as f64) * pct / 100.0).round() as i64,
            (None, Some(off)) => off.min(amount.max(0)),
            (None, None) => 0,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PromotionCode {
    pub id: String,
    pub created: i64,
    pub code: String,
    pub coupon: String,
    pub active: bool,
    pub customer: Option<String>,
    pub max_redemptions: Option<i64>,
    pub expires_at: Option<i64>,
    pub first_time_transaction: bool,
    pub minimum_amount: Option<i64>,
    pub minimum_amount_currency: Option<String>,
    pub times_redeemed: i64,
    pub metadata: Metadata,
}

/// A coupon applied to a customer's subscription (Stripe's `discount`), from `start` until `end`
/// (`None`: for as long as the coupon's duration says, forever or the first invoice).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Discount {
    pub id: String,
    pub coupon: String,
    pub promotion_code: Option<String>,
    pub customer: String,
    pub subscription: Option<String>,
    pub checkout_session: Option<String>,
    pub invoice: Option<String>,
    pub start: i64,
    pub end: Option<i64>,
}

impl Store {
    pub fn render_coupon(&self, c: &Coupon) -> Value {
        json!({
            "id": c.id,
            "object": "coupon",
            "amount_off": c.amount_off,
            "created": c.created,
            "currency": c.currency,
            "duration": c.duration,
            "duration_in_months": c.duration_in_months,
            "livemode": false,
            "max_redemptions": c.max_redemptions,
            "metadata": c.metadata,
            "name": c.name,
            "percent_off": c.percent_off,
            "redeem_by": c.redeem_by,
            "times_redeemed": c.times_redeemed,
            "valid": c.valid(self.now),
        })
    }

    pub fn render_promotion_code(&self, p: &PromotionCode, exp: &Expand) -> Value {
        let promotion = exp.child("promotion").unwrap_or_default();
        json!({
            "id": p.id,
            "object": "promotion_code",
            "active": p.active,
            "code": p.code,
            "created": p.created,
            "customer": self.link(&p.customer, "customer", exp),
            "customer_account": null,
            "expires_at": p.expires_at,
            "livemode": false,
            "max_redemptions": p.max_redemptions,
            "metadata": p.metadata,
            "promotion": {
                "type": "coupon",
                "coupon": self.link(&Some(p.coupon.clone()), "coupon", &promotion),
            },
            "restrictions": {
                "currency_options": {},
                "first_time_transaction": p.first_time_transaction,
                "minimum_amount": p.minimum_amount,
                "minimum_amount_currency": p.minimum_amount_currency,
            },
            "times_redeemed": p.times_redeemed,
        })
    }

    pub fn render_discount(&self, d: &Discount, exp: &Expand) -> Value {
        let source = exp.child("source").unwrap_or_default();
        json!({
            "id": d.id,
            "object": "discount",
            "checkout_session": d.checkout_session,
            "customer": self.link(&Some(d.customer.clone()), "customer", exp),
            "customer_account": null,
            "end": d.end,
            "invoice": d.invoice,
            "invoice_item": null,
            "promotion_code": self.link(&d.promotion_code, "promotion_code", exp),
            "source": {
                "type": "coupon",
                "coupon": self.link(&Some(d.coupon.clone()), "coupon", &source),
            },
            "start": d.start,
            "subscription": d.subscription,
            "subscription_item": null,
        })
    }

    pub fn coupon(&self, id: &str, param: &str) -> Result<&Coupon, ApiError> {
        self.coupons
            .get(id)
            .ok_or_else(|| ApiError::no_such("coupon", id, param))
    }

    pub fn promotion_code(&self, id: &str, param: &str) -> Result<&PromotionCode, ApiError> {
        self.promotion_codes
            .get(id)
            .ok_or_else(|| ApiError::no_such("promotion_code", id, param))
    }

    /// Why the promotion code `id` cannot be used now by `customer` (if known) on an order of
    /// `amount` `currency`: Stripe's own words, or `Ok` with the code.
    pub fn redeemable_code(
        &self,
        id: &str,
        param: &str,
        customer: Option<&str>,
        amount: i64,
        currency: &str,
        now: i64,
    ) -> Result<&PromotionCode, ApiError> {
        let code = self.promotion_code(id, param)?;
        let coupon = self.coupon(&code.coupon, param)?;
        let used_up = code
            .max_redemptions
            .is_some_and(|m| code.times_redeemed >= m);
        let expired = code.expires_at.is_some_and(|t| now >= t);
        if !code.active || used_up || expired || !coupon.valid(now) {
            return Err(ApiError::invalid_param(
                param,
                format!("This promotion code cannot be redeemed because the associated coupon is not valid, or the promotion code is inactive, expired or used up: '{}'.", code.code),
            ));
        }
        if let Some(owner) = &code.customer {
            if customer != Some(owner.as_str()) {
                return Err(ApiError::invalid_param(
                    param,
                    "This promotion code is restricted to a different customer.",
                ));
            }
        }
        if code.first_time_transaction && customer.is_some_and(|c| self.has_paid(c)) {
            return Err(ApiError::invalid_param(
                param,
                "This promotion code can only be used by first-time customers.",
            ));
        }
        if let Some(min) = code.minimum_amount {
            let min_currency = code.minimum_amount_currency.as_deref().unwrap_or(currency);
            if amount < min || min_currency != currency {
                return Err(ApiError::invalid_param(
                    param,
                    "This promotion code has a minimum amount the order does not reach.",
                ));
            }
        }
        if let (Some(c), Some(_)) = (&coupon.currency, coupon.amount_off) {
            if c != currency {
                return Err(ApiError::invalid_param(
                    param,
                    format!("The coupon's currency ({c}) does not match the order's ({currency})."),
                ));
            }
        }
        Ok(code)
    }

    /// Whether the customer has paid an invoice before (first-time restrictions).
    fn has_paid(&self, customer: &str) -> bool {
        self.invoices
            .values()
            .any(|i| i.customer == customer && i.status == "paid" && i.amount_paid > 0)
    }

    /// The promotion code with this customer-facing `code` (case-insensitive, as Stripe matches
    /// them at checkout), active ones first.
    pub fn code_named(&self, code: &str) -> Option<&PromotionCode> {
        let mut matching: Vec<&PromotionCode> = self
            .promotion_codes
            .values()
            .filter(|p| p.code.eq_ignore_ascii_case(code.trim()))
            .collect();
        matching.sort_by_key(|p| (!p.active, std::cmp::Reverse(p.created)));
        matching.into_iter().next()
    }
}
