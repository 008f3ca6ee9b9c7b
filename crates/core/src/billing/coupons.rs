//! Operators' coupons and promotion codes (`closewise billing coupons|promo-codes`): made and
//! read through Stripe's API, so the same commands work on stripe-mock and on Stripe. Only an
//! operator acts here; every change is audited (`coupon.create`, `promotion_code.create`,
//! `promotion_code.deactivate`) once Stripe has made it.

use serde_json::{json, Value};

use super::stripe::{NewCoupon, NewPromotionCode};
use super::{Billing, StripeFailure};
use crate::actor::Actor;

#[derive(Debug, thiserror::Error)]
pub enum CouponsError {
    /// Coupons and codes are the operators' business.
    #[error("only an operator manages coupons and promotion codes")]
    NotOperator,
    /// No active promotion code by that name or id.
    #[error("no active promotion code {0}")]
    NoSuchCode(String),
    /// Stripe refused (its message says why) or could not be reached.
    #[error("{0}")]
    Stripe(StripeFailure),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A coupon as operators see it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CouponView {
    pub id: String,
    pub name: Option<String>,
    pub percent_off: Option<f64>,
    pub amount_off: Option<i64>,
    pub currency: Option<String>,
    pub duration: String,
    pub duration_in_months: Option<i64>,
    pub max_redemptions: Option<i64>,
    pub redeem_by: Option<i64>,
    pub times_redeemed: i64,
    pub valid: bool,
}

/// A promotion code as operators see it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PromotionCodeView {
    pub id: String,
    pub code: String,
    pub coupon: String,
    pub active: bool,
    pub max_redemptions: Option<i64>,
    pub times_redeemed: i64,
    pub expires_at: Option<i64>,
    pub first_time_transaction: bool,
    pub minimum_amount: Option<i64>,
}

fn coupon_view(c: &Value) -> CouponView {
    let s = |k: &str| c[k].as_str().map(str::to_owned);
    CouponView {
        id: s("id").unwrap_or_default(),
        name: s("name"),
        percent_off: c["percent_off"].as_f64(),
        amount_off: c["amount_off"].as_i64(),
        currency: s("currency"),
        duration: s("duration").unwrap_or_default(),
        duration_in_months: c["duration_in_months"].as_i64(),
        max_redemptions: c["max_redemptions"].as_i64(),
        redeem_by: c["redeem_by"].as_i64(),
        times_redeemed: c["times_redeemed"].as_i64().unwrap_or(0),
        valid: c["valid"].as_bool().unwrap_or(false),
    }
}

fn code_view(p: &Value) -> PromotionCodeView {
    let coupon = &p["promotion"]["coupon"];
    PromotionCodeView {
        id: p["id"].as_str().unwrap_or_default().to_owned(),
        code: p["code"].as_str().unwrap_or_default().to_owned(),
        coupon: coupon
            .as_str()
            .or_else(|| coupon["id"].as_str())
            .unwrap_or_default()
            .to_owned(),
        active: p["active"].as_bool().unwrap_or(false),
        max_redemptions: p["max_redemptions"].as_i64(),
        times_redeemed: p["times_redeemed"].as_i64().unwrap_or(0),
        expires_at: p["expires_at"].as_i64(),
        first_time_transaction: p["restrictions"]["first_time_transaction"]
            .as_bool()
            .unwrap_or(false),
        minimum_amount: p["restrictions"]["minimum_amount"].as_i64(),
    }
}

fn operator(actor: &Actor) -> Result<(), CouponsError> {
    match actor {
        Actor::Operator { .. } => Ok(()),
        _ => Err(CouponsError::NotOperator),
    }
}

impl Billing {
    pub async fn create_coupon(
        &self,
        actor: &Actor,
        coupon: &NewCoupon,
    ) -> Result<CouponView, CouponsError> {
        operator(actor)?;
        let made = self
            .stripe
            .create_coupon(coupon)
            .await
            .map_err(CouponsError::Stripe)?;
        let view = coupon_view(&made);
        self.audit_change(actor, "coupon.create", json!(view))
            .await?;
        Ok(view)
    }

    pub async fn coupons(&self, actor: &Actor) -> Result<Vec<CouponView>, CouponsError> {
        operator(actor)?;
        let list = self.stripe.coupons().await.map_err(CouponsError::Stripe)?;
        Ok(list.iter().map(coupon_view).collect())
    }

    pub async fn create_promotion_code(
        &self,
        actor: &Actor,
        code: &NewPromotionCode,
    ) -> Result<PromotionCodeView, CouponsError> {
        operator(actor)?;
        let made = self
            .stripe
            .create_promotion_code(code)
            .await
            .map_err(CouponsError::Stripe)?;
        let view = code_view(&made);
        self.audit_change(actor, "promotion_code.create", json!(view))
            .await?;
        Ok(view)
    }

    /// The newest promotion codes, only the active ones if `active_only`.
    pub async fn promotion_codes(
        &self,
        actor: &Actor,
        active_only: bool,
    ) -> Result<Vec<PromotionCodeView>, CouponsError> {
        operator(actor)?;
        let list = self
            .stripe
            .promotion_codes(active_only.then_some(true))
            .await
            .map_err(CouponsError::Stripe)?;
        Ok(list.iter().map(code_view).collect())
    }

    /// Turns off the promotion code `code_or_id` (its `promo_…` id, or the code as customers
    /// type it).
    pub async fn deactivate_promotion_code(
        &self,
        actor: &Actor,
        code_or_id: &str,
    ) -> Result<PromotionCodeView, CouponsError> {
        operator(actor)?;
        let id = if code_or_id.starts_with("promo_") {
            code_or_id.to_owned()
        } else {
            self.stripe
                .promotion_code(code_or_id)
                .await
                .map_err(CouponsError::Stripe)?
                .map(|f| f.id)
                .ok_or_else(|| CouponsError::NoSuchCode(code_or_id.to_owned()))?
        };
        let done = match self.stripe.deactivate_promotion_code(&id).await {
            Err(StripeFailure::NotFound) => return Err(CouponsError::NoSuchCode(id)),
            other => other.map_err(CouponsError::Stripe)?,
        };
        let view = code_view(&done);
        self.audit_change(actor, "promotion_code.deactivate", json!(view))
            .await?;
        Ok(view)
    }

    async fn audit_change(
        &self,
        actor: &Actor,
        action: &'static str,
        details: Value,
    ) -> Result<(), sqlx::Error> {
        let audit = actor.audit(action, None, None, details, self.clock.now());
        self.store.record_audit(&audit).await
    }
}
