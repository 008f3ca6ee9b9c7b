//! The Devices list: the caller's signed-in desktop apps, and signing one of them out.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
#[schema(as = Device)]
pub struct DeviceBody {
    /// The device's session id.
    pub id: Uuid,
    pub name: String,
    pub platform: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_seen_at: Option<OffsetDateTime>,
    /// True for the session of this access token.
    pub current: bool,
}

#[derive(Serialize, ToSchema)]
#[schema(as = DeviceList)]
pub struct DevicesResponse {
    pub devices: Vec<DeviceBody>,
}

#[utoipa::path(get, path = "/api/auth/devices", tag = "auth",
    responses((status = 200, body = DevicesResponse), (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn list_devices(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<DevicesResponse>> {
    let devices = state
        .desktop
        .devices(auth.user_id)
        .await?
        .into_iter()
        .map(|d| DeviceBody {
            current: d.id == auth.session_id,
            id: d.id,
            name: d.name,
            platform: d.platform,
            created_at: d.created_at,
            last_seen_at: d.last_seen_at,
        })
        .collect();
    Ok(AppJson(DevicesResponse { devices }))
}

#[utoipa::path(delete, path = "/api/auth/devices/{id}", tag = "auth",
    params(("id" = String, Path, description = "The device's id")),
    responses((status = 204, description = "Signed out: its session, refresh chain and access tokens end now"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody, description = "`device_not_found`")),
    security(("bearer" = [])))]
pub async fn sign_out_device(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    state.desktop.sign_out_device(auth.user_id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
