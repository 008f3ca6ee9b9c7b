//! The promotion a checkout offers: a code the buyer typed, looked up on Stripe and checked with
//! the domain's rules so an unknown, expired or used-up code is refused with its reason before
//! any checkout is made; without one, Stripe's page lets the buyer type a code.

use closewise_domain::promotion::{check_promotion, PromotionCode, PromotionRefusal};

use super::stripe::Promotion;
use super::{Billing, StripeFailure};

/// Why the typed code gave no promotion.
#[derive(Debug, thiserror::Error)]
pub enum PromotionError {
    #[error("{0}")]
    Refused(PromotionRefusal),
    #[error("the promotion code could not be looked up: {0}")]
    Stripe(StripeFailure),
}

impl Billing {
    /// `typed` (the code as typed; blank counts as none) for a buyer who has `paid_before` on an
    /// order of `amount` minor units.
    pub(crate) async fn promotion_for(
        &self,
        typed: Option<&str>,
        paid_before: bool,
        amount: i64,
    ) -> Result<Promotion, PromotionError> {
        let Some(typed) = typed.filter(|t| !t.trim().is_empty()) else {
            return Ok(Promotion::Allow);
        };
        let code = PromotionCode::parse(typed).map_err(PromotionError::Refused)?;
        let found = self
            .stripe
            .promotion_code(code.as_str())
            .await
            .map_err(PromotionError::Stripe)?;
        check_promotion(
            found.as_ref().map(|f| &f.facts),
            self.clock.now(),
            paid_before,
            amount,
        )
        .map_err(PromotionError::Refused)?;
        let id = found.map(|f| f.id).expect("checked above");
        Ok(Promotion::Code(id))
    }
}
