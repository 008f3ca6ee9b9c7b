//! Accounts over HTTP: one file per flow (sign-up, verification, tokens, sign-out, recovery, the
//! signed-in account, the desktop app's browser and device sign-in and its devices), sessions and
//! their cookie, e-mail tokens, and passkeys (`passkeys`).

pub(crate) mod account;
mod authorize;
pub(crate) mod common;
mod device;
mod devices;
mod grants;
mod logout;
mod mfa;
mod passkeys;
pub(crate) mod reauth;
mod recover;
mod saml;
pub mod session;
mod signup;
mod sso;
mod token_endpoint;
mod verify;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::state::AppState;

pub(crate) use common::limit;
pub use common::{EmptyResponse, EMAIL_WORK_FLOOR};
pub use grants::{CodeGrantRequest, DeviceGrantRequest};
pub use passkeys::PasskeyGrantRequest;
pub(crate) use sso::state_cookie as sso_state_cookie;
pub use token_endpoint::RefreshRequest;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(signup::signup))
        .routes(routes!(verify::verify))
        .routes(routes!(verify::choose_password))
        .routes(routes!(verify::resend))
        .routes(routes!(token_endpoint::token))
        .routes(routes!(logout::logout))
        .routes(routes!(account::current_user))
        .routes(routes!(recover::recover))
        .routes(routes!(recover::reset))
        .routes(routes!(account::change_password))
        .routes(routes!(reauth::reauthenticate))
        .routes(routes!(mfa::status))
        .routes(routes!(mfa::begin_totp, mfa::disable_totp))
        .routes(routes!(mfa::confirm_totp))
        .routes(routes!(mfa::regenerate_recovery_codes))
        .routes(routes!(account::delete_account))
        .routes(routes!(account::jwks))
        .routes(routes!(authorize::authorize_info, authorize::authorize))
        .routes(routes!(device::request_device))
        .routes(routes!(device::lookup))
        .routes(routes!(device::approve))
        .routes(routes!(device::deny))
        .routes(routes!(devices::list_devices))
        .routes(routes!(devices::sign_out_device))
        .routes(routes!(passkeys::registration_options))
        .routes(routes!(passkeys::create, passkeys::list))
        .routes(routes!(passkeys::remove))
        .routes(routes!(passkeys::sign_in_challenge))
        .routes(routes!(sso::discover))
        .routes(routes!(sso::start))
        .routes(routes!(sso::callback))
        .routes(routes!(saml::metadata))
        .routes(routes!(saml::acs))
        .routes(routes!(
            sso::switch_info,
            sso::switch_continue,
            sso::switch_cancel
        ))
}
