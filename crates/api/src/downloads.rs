//! `GET /api/downloads`: the desktop release the download chooser offers and its disk images, from
//! run-time settings (`DOWNLOAD_BASE_URL`, `DESKTOP_VERSION`), so one web build serves any
//! environment. Without a release address (development), the images are this server's own
//! `/downloads/…`, served from `DATA_DIR/downloads` and explained by a clear page when missing.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde::Serialize;
use tower_http::services::ServeDir;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use closewise_domain::downloads::{disk_image_url, MacArch};

use crate::config::{Settings, LOCAL_DOWNLOADS_PATH};
use crate::extract::AppJson;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(downloads))
}

/// The disk image of each Mac build.
#[derive(Serialize, ToSchema)]
pub struct MacDownloads {
    /// Apple Silicon (M1, M2, M3; 2020 and newer).
    pub arm64: String,
    /// Intel (2019 and older).
    pub x64: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = DownloadsBody)]
pub struct DownloadsResponse {
    /// The desktop release, e.g. `v1.0.0`.
    pub version: String,
    pub mac: MacDownloads,
}

/// The desktop release the download chooser offers, and where each Mac's disk image is.
#[utoipa::path(
    get,
    path = "/api/downloads",
    tag = "downloads",
    responses((status = 200, body = DownloadsResponse))
)]
async fn downloads(State(state): State<AppState>) -> AppJson<DownloadsResponse> {
    let d = &state.settings.downloads;
    let base = d.release_base(&state.settings.base_url);
    let url = |arch| disk_image_url(&base, &d.version, arch);
    AppJson(DownloadsResponse {
        version: d.version.as_str().to_owned(),
        mac: MacDownloads {
            arm64: url(MacArch::Arm64),
            x64: url(MacArch::X64),
        },
    })
}

/// This server's own `/downloads`, when no release address is set: the files under
/// `DATA_DIR/downloads`, and a page that says what to do when one is not there.
pub fn local_files(settings: &Settings) -> Option<(&'static str, Router)> {
    if settings.downloads.base_url.is_some() {
        return None;
    }
    let dir = settings.data_dir.join("downloads");
    let missing =
        tower::service_fn(|_req| async { Ok::<_, std::convert::Infallible>(missing_page()) });
    let files = ServeDir::new(dir).not_found_service(missing);
    Some((LOCAL_DOWNLOADS_PATH, Router::new().fallback_service(files)))
}

fn missing_page() -> Response {
    const PAGE: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>No disk image here | Closewise</title></head><body>\
<h1>No disk image here</h1>\
<p>This is a local Closewise server: it has no desktop app release to hand out.</p>\
<p>Put the disk images under <code>DATA_DIR/downloads/&lt;version&gt;/</code>, or set \
<code>DOWNLOAD_BASE_URL</code> to the release address they are published at (see docs/deploy.md).</p>\
</body></html>\n";
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        PAGE,
    )
        .into_response()
}
