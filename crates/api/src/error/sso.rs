//! Single sign-on's refusals as HTTP (the owner's settings and the sign-in's start). The
//! callback is a browser's navigation: it redirects with the code instead (`auth/sso.rs`).

use axum::http::StatusCode;
use closewise_core::sso::SsoError;

use super::ApiError;

impl From<SsoError> for ApiError {
    fn from(e: SsoError) -> Self {
        let status = match e {
            SsoError::Team(e) => return e.into(),
            SsoError::Session(e) => return e.into(),
            SsoError::Database(e) => return e.into(),
            SsoError::Internal(e) => return e.into(),
            SsoError::InvalidIssuer(_)
            | SsoError::ClientIdRequired
            | SsoError::ClientSecretRequired
            | SsoError::InvalidEmailClaim
            | SsoError::InvalidProtocol
            | SsoError::SamlMetadataRequired => StatusCode::BAD_REQUEST,
            SsoError::Discovery
            | SsoError::DiscoveryUnusable(_)
            | SsoError::IssuerNotPublic
            | SsoError::InvalidSamlMetadata(_) => StatusCode::UNPROCESSABLE_ENTITY,
            SsoError::NoVerifiedDomain | SsoError::OtherTeam | SsoError::NoFreeSeat { .. } => {
                StatusCode::CONFLICT
            }
            SsoError::NotConfigured | SsoError::NoSsoForDomain => StatusCode::NOT_FOUND,
            SsoError::LoginExpired
            | SsoError::ProviderDenied
            | SsoError::InvalidIdToken(_)
            | SsoError::EmailClaimMissing(_)
            | SsoError::InvalidSamlResponse(_)
            | SsoError::SamlExpired
            | SsoError::SamlReplayed
            | SsoError::SamlUnsolicited
            | SsoError::SamlNoAddress
            | SsoError::Identity(_) => StatusCode::FORBIDDEN,
        };
        Self::new(status, e.code(), e.to_string())
    }
}
