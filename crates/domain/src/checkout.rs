//! Who may start a checkout: the spec's preconditions and messages.
//!
//! The preconditions are the spec's, checked in its order, with its messages: signed in, a valid
//! session token, a verified e-mail, and no subscription that counts as subscribed to the same price.
//! A seat in a paid team counts as such a subscription (teams buy the same price per seat), so
//! nobody pays twice for the plan they already have through their team.

use crate::plan::PlanType;
use crate::subscription::SubscriptionStatus;

/// What the checkout endpoint knows about the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckoutRequest<'a> {
    pub has_auth_header: bool,
    pub token_valid: bool,
    pub email_verified: bool,
    pub price_id: &'a str,
    /// Price of the user's subscription that counts as subscribed (active or trialing), if any.
    pub active_subscription_price_id: Option<&'a str>,
    /// Price of the team subscription that covers the caller: they hold a seat in a team whose
    /// subscription counts as subscribed (`teams::member_is_paid`), if any.
    pub team_price_id: Option<&'a str>,
}

/// Why a checkout may not start. The messages are shown to users as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CheckoutRefusal {
    #[error("Please sign in to continue")]
    NotSignedIn,
    #[error("Authentication required. Please sign in again.")]
    InvalidToken,
    #[error("Please verify your email address before subscribing")]
    EmailNotVerified,
    #[error("You already have this subscription")]
    AlreadySubscribed,
}

impl CheckoutRefusal {
    /// A stable machine-readable code for API error bodies.
    pub fn code(&self) -> &'static str {
        match self {
            CheckoutRefusal::NotSignedIn => "not_signed_in",
            CheckoutRefusal::InvalidToken => "invalid_token",
            CheckoutRefusal::EmailNotVerified => "email_not_verified",
            CheckoutRefusal::AlreadySubscribed => "already_subscribed",
        }
    }
}

/// Checks the checkout preconditions in the spec's order; the first that fails is reported.
pub fn decide_checkout(req: &CheckoutRequest) -> Result<(), CheckoutRefusal> {
    if !req.has_auth_header {
        return Err(CheckoutRefusal::NotSignedIn);
    }
    if !req.token_valid {
        return Err(CheckoutRefusal::InvalidToken);
    }
    if !req.email_verified {
        return Err(CheckoutRefusal::EmailNotVerified);
    }
    if req.active_subscription_price_id == Some(req.price_id)
        || req.team_price_id == Some(req.price_id)
    {
        return Err(CheckoutRefusal::AlreadySubscribed);
    }
    Ok(())
}

/// What the pricing page's checkout button offers a signed-in user, before they click: the
/// spec's preconditions in their order, where a paid plan (their own or a seat in a paid team)
/// is the plan they already have. Sent as `verify_email`, `current_plan` or `available`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckoutOffer {
    /// The address must be verified first.
    VerifyEmail,
    /// The user has the paid plan already: nothing to buy.
    CurrentPlan,
    /// The user may start a checkout.
    Available,
}

impl CheckoutOffer {
    pub fn as_str(&self) -> &'static str {
        match self {
            CheckoutOffer::VerifyEmail => "verify_email",
            CheckoutOffer::CurrentPlan => "current_plan",
            CheckoutOffer::Available => "available",
        }
    }
}

/// Paid on the personal plan: the plan says Monthly, or the user's own subscription counts as
/// subscribed (a seat in a team is not a personal payment).
pub fn personal_paid(plan: PlanType, subscription: Option<SubscriptionStatus>) -> bool {
    plan.is_paid() || subscription.is_some_and(|s| s.counts_as_subscribed())
}

/// The checkout button's offer for a signed-in user: verified first, then whether they have the
/// paid plan already, personally or through a seat in a paid team (`teams::member_is_paid`).
pub fn checkout_offer(email_verified: bool, personal_paid: bool, team_paid: bool) -> CheckoutOffer {
    if !email_verified {
        CheckoutOffer::VerifyEmail
    } else if personal_paid || team_paid {
        CheckoutOffer::CurrentPlan
    } else {
        CheckoutOffer::Available
    }
}

/// Shown when creating the Stripe checkout session fails.
pub const CHECKOUT_FAILED: &str = "Failed to create checkout session";
/// Shown when payment succeeded but the plan could not be switched to Monthly.
pub const ACTIVATION_FAILED: &str = "Plan activation failed, but you can contact support.";

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const OK: CheckoutRequest<'static> = CheckoutRequest {
        has_auth_header: true,
        token_valid: true,
        email_verified: true,
        price_id: "price_closewise_monthly",
        active_subscription_price_id: None,
        team_price_id: None,
    };

    #[test]
    fn a_signed_in_verified_user_without_a_subscription_may_check_out() {
        assert_eq!(decide_checkout(&OK), Ok(()));
    }

    #[test]
    fn each_refusal_has_the_specs_message_and_a_code() {
        let cases = [
            (
                CheckoutRefusal::NotSignedIn,
                "Please sign in to continue",
                "not_signed_in",
            ),
            (
                CheckoutRefusal::InvalidToken,
                "Authentication required. Please sign in again.",
                "invalid_token",
            ),
            (
                CheckoutRefusal::EmailNotVerified,
                "Please verify your email address before subscribing",
                "email_not_verified",
            ),
            (
                CheckoutRefusal::AlreadySubscribed,
                "You already have this subscription",
                "already_subscribed",
            ),
        ];
        for (refusal, message, code) in cases {
            assert_eq!(refusal.to_string(), message);
            assert_eq!(refusal.code(), code);
        }
        assert_eq!(CHECKOUT_FAILED, "Failed to create checkout session");
        assert_eq!(
            ACTIVATION_FAILED,
            "Plan activation failed, but you can contact support."
        );
    }

    #[test]
    fn a_missing_auth_header_is_not_signed_in_whatever_else_is_true() {
        let req = CheckoutRequest {
            has_auth_header: false,
            token_valid: false,
            email_verified: false,
            ..OK
        };
        assert_eq!(decide_checkout(&req), Err(CheckoutRefusal::NotSignedIn));
    }

    #[test]
    fn an_invalid_token_is_refused_before_the_email_is_looked_at() {
        let req = CheckoutRequest {
            token_valid: false,
            email_verified: false,
            ..OK
        };
        assert_eq!(decide_checkout(&req), Err(CheckoutRefusal::InvalidToken));
    }

    #[test]
    fn an_unverified_email_is_refused() {
        let req = CheckoutRequest {
            email_verified: false,
            active_subscription_price_id: Some(OK.price_id),
            ..OK
        };
        assert_eq!(
            decide_checkout(&req),
            Err(CheckoutRefusal::EmailNotVerified)
        );
    }

    #[test]
    fn a_subscription_to_the_same_price_is_refused_but_another_price_is_allowed() {
        let same = CheckoutRequest {
            active_subscription_price_id: Some("price_closewise_monthly"),
            ..OK
        };
        assert_eq!(
            decide_checkout(&same),
            Err(CheckoutRefusal::AlreadySubscribed)
        );
        let other = CheckoutRequest {
            active_subscription_price_id: Some("price_old"),
            ..OK
        };
        assert_eq!(decide_checkout(&other), Ok(()));
    }

    #[test]
    fn a_seat_in_a_paid_team_on_the_same_price_is_already_subscribed() {
        let covered = CheckoutRequest {
            team_price_id: Some("price_closewise_monthly"),
            ..OK
        };
        assert_eq!(
            decide_checkout(&covered),
            Err(CheckoutRefusal::AlreadySubscribed)
        );
        let other = CheckoutRequest {
            team_price_id: Some("price_old"),
            ..OK
        };
        assert_eq!(decide_checkout(&other), Ok(()));
        let unverified = CheckoutRequest {
            email_verified: false,
            ..covered
        };
        assert_eq!(
            decide_checkout(&unverified),
            Err(CheckoutRefusal::EmailNotVerified)
        );
    }

    #[test]
    fn the_plan_or_an_own_subscription_that_counts_makes_the_user_paid() {
        assert!(personal_paid(PlanType::Monthly, None));
        assert!(personal_paid(
            PlanType::Free,
            Some(SubscriptionStatus::Trialing)
        ));
        assert!(personal_paid(
            PlanType::Free,
            Some(SubscriptionStatus::Active)
        ));
        assert!(!personal_paid(
            PlanType::Free,
            Some(SubscriptionStatus::PastDue)
        ));
        assert!(!personal_paid(PlanType::Free, None));
    }

    #[test]
    fn the_offer_asks_for_verification_first_then_shows_the_current_plan() {
        use CheckoutOffer::*;
        for (verified, own, team, offer, name) in [
            (false, true, true, VerifyEmail, "verify_email"),
            (true, true, false, CurrentPlan, "current_plan"),
            (true, false, true, CurrentPlan, "current_plan"),
            (true, false, false, Available, "available"),
        ] {
            assert_eq!(checkout_offer(verified, own, team), offer);
            assert_eq!(offer.as_str(), name);
        }
    }

    type Drawn = (bool, bool, bool, Option<bool>, Option<bool>);

    fn request_strategy() -> impl Strategy<Value = Drawn> {
        (
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            proptest::option::of(any::<bool>()),
            proptest::option::of(any::<bool>()),
        )
    }

    proptest! {
        #[test]
        fn checkout_is_allowed_exactly_when_every_precondition_holds(
            (auth, token, verified, sub, team) in request_strategy()
        ) {
            // sub (the personal subscription) and team (a paid team's): None = none,
            // Some(true) = the same price, Some(false) = another price.
            let price = |same: bool| if same { "price_a" } else { "price_b" };
            let req = CheckoutRequest {
                has_auth_header: auth,
                token_valid: token,
                email_verified: verified,
                price_id: "price_a",
                active_subscription_price_id: sub.map(price),
                team_price_id: team.map(price),
            };
            let expected = if !auth {
                Err(CheckoutRefusal::NotSignedIn)
            } else if !token {
                Err(CheckoutRefusal::InvalidToken)
            } else if !verified {
                Err(CheckoutRefusal::EmailNotVerified)
            } else if sub == Some(true) || team == Some(true) {
                Err(CheckoutRefusal::AlreadySubscribed)
            } else {
                Ok(())
            };
            prop_assert_eq!(decide_checkout(&req), expected);
        }

    }
}
