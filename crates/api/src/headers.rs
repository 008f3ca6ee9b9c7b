//! Security headers on every answer: the API's JSON gets a deny-everything CSP; the web app's
//! pages bring their own (set in `web`), which is kept.

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

use crate::config::Settings;

#[derive(Clone)]
pub struct SecurityHeaders {
    hsts: bool,
}

impl SecurityHeaders {
    pub fn new(settings: &Settings) -> Self {
        SecurityHeaders {
            hsts: settings.base_url.starts_with("https://"),
        }
    }
}

pub async fn security_headers(
    State(config): State<SecurityHeaders>,
    req: Request,
    next: Next,
) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    let defaults = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; frame-ancestors 'none'",
        ),
        (
            header::HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ];
    for (name, value) in defaults {
        if !h.contains_key(&name) {
            h.insert(name, HeaderValue::from_static(value));
        }
    }
    if config.hsts {
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=63072000; includeSubDomains"),
        );
    }
    res
}
