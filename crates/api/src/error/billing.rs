//! Billing's errors as HTTP: the personal checkout's, the team's, Stripe's webhook, and the
//! refusals both checkouts and portals share.

use axum::http::StatusCode;
use closewise_core::billing::cancel::CancelError;
use closewise_core::billing::interval::IntervalError;
use closewise_core::billing::signature::SignatureError;
use closewise_core::billing::{BillingError, EventError, PersonalBillingError, WebhookError};
use closewise_core::teams::billing::TeamBillingError;
use closewise_domain::billing_interval::InvalidInterval;
use closewise_domain::cancellation::InvalidReason;
use closewise_domain::checkout::{CheckoutRefusal, ACTIVATION_FAILED, CHECKOUT_FAILED};
use closewise_domain::team_purchase::{InvalidCollection, PurchaseRefusal};

use super::ApiError;

impl ApiError {
    /// Stripe could not create a checkout (personal or team).
    pub fn checkout_failed() -> Self {
        Self::new(StatusCode::BAD_GATEWAY, "checkout_failed", CHECKOUT_FAILED)
    }

    /// Stripe could not open a billing portal (personal or team).
    fn portal_failed() -> Self {
        Self::new(
            StatusCode::BAD_GATEWAY,
            "portal_failed",
            "Could not open the billing portal. Please try again.",
        )
    }

    /// Team checkout's errors: Stripe failing is `checkout_failed`, as for the personal checkout.
    pub fn team_checkout(e: TeamBillingError) -> Self {
        match e {
            TeamBillingError::StripeUnavailable(cause) => {
                tracing::warn!(error = %cause, "team checkout failed");
                Self::checkout_failed()
            }
            other => other.into(),
        }
    }

    /// Team checkout's confirmation: Stripe failing answers with the activation message, as
    /// `/api/checkout/confirm` does.
    pub fn team_confirmation(e: TeamBillingError) -> Self {
        match e {
            TeamBillingError::StripeUnavailable(_) => {
                Self::new(StatusCode::BAD_GATEWAY, e.code(), ACTIVATION_FAILED)
            }
            other => other.into(),
        }
    }
}

impl From<CheckoutRefusal> for ApiError {
    fn from(r: CheckoutRefusal) -> Self {
        let status = match r {
            CheckoutRefusal::NotSignedIn | CheckoutRefusal::InvalidToken => {
                StatusCode::UNAUTHORIZED
            }
            CheckoutRefusal::EmailNotVerified => StatusCode::FORBIDDEN,
            CheckoutRefusal::AlreadySubscribed => StatusCode::CONFLICT,
        };
        Self::new(status, r.code(), r.to_string())
    }
}

impl From<PersonalBillingError> for ApiError {
    fn from(e: PersonalBillingError) -> Self {
        let code = e.code();
        let (status, message) = match e {
            PersonalBillingError::Database(db)
            | PersonalBillingError::Activation(BillingError::Database(db)) => return db.into(),
            PersonalBillingError::Refused(r) => return r.into(),
            PersonalBillingError::UnknownPrice
            | PersonalBillingError::InvalidRedirect
            | PersonalBillingError::InvalidPromotion(_) => (StatusCode::BAD_REQUEST, e.to_string()),
            PersonalBillingError::CheckoutFailed(_) => return Self::checkout_failed(),
            PersonalBillingError::Activation(a) => {
                let status = match a {
                    BillingError::SessionNotFound => StatusCode::NOT_FOUND,
                    BillingError::SessionNotYours => StatusCode::FORBIDDEN,
                    BillingError::SessionNotPaid => StatusCode::CONFLICT,
                    BillingError::StripeUnavailable(_) | BillingError::Database(_) => {
                        StatusCode::BAD_GATEWAY
                    }
                };
                (status, ACTIVATION_FAILED.to_owned())
            }
            PersonalBillingError::NoCustomer => (StatusCode::NOT_FOUND, e.to_string()),
            PersonalBillingError::PortalFailed(_) => return Self::portal_failed(),
        };
        Self::new(status, code, message)
    }
}

impl From<TeamBillingError> for ApiError {
    fn from(e: TeamBillingError) -> Self {
        use TeamBillingError as E;
        let status = match e {
            E::Database(db) => return db.into(),
            E::Limited(limited) => return limited.into(),
            E::Refused(r) => return r.into(),
            E::PortalFailed(_) => return Self::portal_failed(),
            E::TeamNotFound | E::NoCustomer | E::SessionNotFound => StatusCode::NOT_FOUND,
            E::ForbiddenRole | E::SessionNotYours => StatusCode::FORBIDDEN,
            E::InvalidSeats(_)
            | E::InvalidProrationDate
            | E::InvalidRedirect
            | E::InvalidPromotion(_) => StatusCode::BAD_REQUEST,
            E::Purchase(PurchaseRefusal::TrialAlreadyUsed) => StatusCode::CONFLICT,
            E::Purchase(_) => StatusCode::UNPROCESSABLE_ENTITY,
            E::Seats(ref s) if s.code() == "invalid_seats" => StatusCode::BAD_REQUEST,
            E::Seats(_)
            | E::AlreadySubscribed
            | E::NoSubscription
            | E::Interval(_)
            | E::Cancel(_)
            | E::SessionNotPaid => StatusCode::CONFLICT,
            E::StripeUnavailable(_) => StatusCode::BAD_GATEWAY,
        };
        let message = match &e {
            E::SessionNotFound | E::SessionNotYours | E::SessionNotPaid => {
                ACTIVATION_FAILED.to_owned()
            }
            E::StripeUnavailable(cause) => {
                tracing::warn!(error = %cause, "team billing: Stripe failed");
                "Stripe could not be reached. Please try again.".to_owned()
            }
            other => other.to_string(),
        };
        Self::new(status, e.code(), message)
    }
}

impl From<InvalidCollection> for ApiError {
    fn from(e: InvalidCollection) -> Self {
        Self::bad_request(e.code(), e.to_string())
    }
}

impl From<InvalidInterval> for ApiError {
    fn from(e: InvalidInterval) -> Self {
        Self::bad_request(e.code(), e.to_string())
    }
}

impl From<IntervalError> for ApiError {
    fn from(e: IntervalError) -> Self {
        let code = e.code();
        let status = match e {
            IntervalError::Database(db) => return db.into(),
            IntervalError::Refused(_) => StatusCode::CONFLICT,
            IntervalError::InvalidProrationDate => StatusCode::BAD_REQUEST,
            IntervalError::StripeUnavailable(ref cause) => {
                tracing::warn!(error = %cause, "interval switch: Stripe failed");
                let message = "Stripe could not be reached. Please try again.";
                return Self::new(StatusCode::BAD_GATEWAY, code, message);
            }
        };
        Self::new(status, code, e.to_string())
    }
}

impl From<InvalidReason> for ApiError {
    fn from(e: InvalidReason) -> Self {
        Self::bad_request(e.code(), e.to_string())
    }
}

impl From<CancelError> for ApiError {
    fn from(e: CancelError) -> Self {
        let code = e.code();
        match e {
            CancelError::Database(db) => db.into(),
            CancelError::Refused(r) => Self::new(StatusCode::CONFLICT, code, r.to_string()),
            CancelError::StripeUnavailable(ref cause) => {
                tracing::warn!(error = %cause, "cancellation: Stripe failed");
                let message = "Stripe could not be reached. Please try again.";
                Self::new(StatusCode::BAD_GATEWAY, code, message)
            }
        }
    }
}

/// A webhook whose signature is missing, malformed, stale or wrong.
impl From<SignatureError> for ApiError {
    fn from(e: SignatureError) -> Self {
        tracing::warn!(error = %e, "webhook refused");
        Self::bad_request("invalid_signature", "Invalid Stripe signature")
    }
}

/// A webhook event that is not Stripe's, or that could not be processed now (Stripe delivers it
/// again).
impl From<EventError> for ApiError {
    fn from(e: EventError) -> Self {
        match e {
            EventError::Invalid => {
                Self::bad_request("invalid_payload", "The event is not a Stripe event")
            }
            EventError::Failed(_) => Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "The event could not be processed now. Please deliver it again.",
            ),
            EventError::Database(e) => e.into(),
        }
    }
}

/// A webhook delivery refused: its signature, else its event.
impl From<WebhookError> for ApiError {
    fn from(e: WebhookError) -> Self {
        match e {
            WebhookError::Signature(e) => e.into(),
            WebhookError::Event(e) => e.into(),
        }
    }
}
