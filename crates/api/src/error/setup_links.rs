//! The setup links' refusals as HTTP (`/api/team/setup-links` and `/api/setup/{token}`). A gone
//! link's `410` carries its reason too; `setup::SetupError` answers it.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use closewise_core::setup_links::SetupLinksError as E;
use closewise_domain::setup_links::SetupLinkState;
use serde::Serialize;
use utoipa::ToSchema;

use super::{ApiError, ErrorDetail};

impl From<E> for ApiError {
    fn from(e: E) -> Self {
        let status = match e {
            E::Team(e) => return e.into(),
            E::Domains(e) => return e.into(),
            E::Sso(e) => return e.into(),
            E::Database(e) => return e.into(),
            E::Internal(e) => return ApiError::Internal(e),
            E::InvalidSteps(_) | E::NotAtVerifiedDomain => StatusCode::BAD_REQUEST,
            E::NotFound => StatusCode::NOT_FOUND,
            E::Gone(_) => StatusCode::GONE,
            E::StepNotAllowed => StatusCode::FORBIDDEN,
            E::NoDraft => StatusCode::CONFLICT,
        };
        Self::new(status, e.code(), e.to_string())
    }
}

/// Why a link is gone.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
#[schema(as = SetupLinkGoneReason)]
pub enum GoneReason {
    Expired,
    Revoked,
    Finished,
}

/// `410 setup_link_gone`: the error, and why the link is gone.
#[derive(Serialize, ToSchema)]
#[schema(as = SetupLinkGone)]
pub struct GoneBody {
    pub error: ErrorDetail,
    pub reason: GoneReason,
}

/// A refusal at the link: `410` with its reason, or any other.
pub enum SetupError {
    Gone(SetupLinkState),
    Api(ApiError),
}

impl From<ApiError> for SetupError {
    fn from(e: ApiError) -> Self {
        SetupError::Api(e)
    }
}

/// The link service's refusals: a gone link keeps its reason.
impl From<E> for SetupError {
    fn from(e: E) -> Self {
        match e {
            E::Gone(state) => SetupError::Gone(state),
            e => SetupError::Api(e.into()),
        }
    }
}

impl IntoResponse for SetupError {
    fn into_response(self) -> Response {
        match self {
            SetupError::Api(e) => e.into_response(),
            SetupError::Gone(state) => {
                let reason = match state {
                    SetupLinkState::Finished => GoneReason::Finished,
                    SetupLinkState::Revoked => GoneReason::Revoked,
                    _ => GoneReason::Expired,
                };
                let body = GoneBody {
                    error: ErrorDetail {
                        code: "setup_link_gone".into(),
                        message: state.gone_message().into(),
                        mfa_token: None,
                        methods: None,
                    },
                    reason,
                };
                (StatusCode::GONE, axum::Json(body)).into_response()
            }
        }
    }
}
