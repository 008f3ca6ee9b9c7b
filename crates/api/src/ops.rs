//! Health, readiness, and the development mail catcher.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AppQuery};
use crate::state::AppState;
use closewise_core::mail::templates::escape;
use closewise_core::store::mail::MailFilter;
use closewise_core::store::MailRow;

/// The mail catcher is development-only and undocumented, so it is a plain route.
pub fn router(development: bool) -> OpenApiRouter<AppState> {
    let router = OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz));
    if development {
        router
            .route("/dev/mail", get(mail_page))
            .route("/dev/mail.json", get(mail_json))
    } else {
        router
    }
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct Status {
    pub status: String,
}

#[utoipa::path(get, path = "/healthz", tag = "ops", responses((status = 200, body = Status)))]
pub async fn healthz() -> AppJson<Status> {
    AppJson(Status {
        status: "ok".into(),
    })
}

#[utoipa::path(get, path = "/readyz", tag = "ops", responses((status = 200, body = Status), (status = 503, body = crate::error::ErrorBody)))]
pub async fn readyz(State(state): State<AppState>) -> ApiResult<AppJson<Status>> {
    state.ops.ping().await.map_err(ApiError::unavailable)?;
    Ok(AppJson(Status {
        status: "ready".into(),
    }))
}

#[derive(Deserialize)]
pub struct MailQuery {
    pub to: Option<String>,
}

#[derive(Serialize)]
struct DevMail {
    id: String,
    to: String,
    kind: String,
    subject: String,
    text: String,
    html: String,
    link: Option<String>,
    created_at: String,
    sent_at: Option<String>,
}

/// Only a client on this machine (the raw peer address, never a forwarding header), asking for
/// this machine by a loopback name, may read the development mailbox: it holds every live
/// verification and reset link. A page of another site whose DNS name was rebound to 127.0.0.1,
/// or a tunnel to this port, arrives from loopback too, but under its own name in `Host`. Others
/// get a 404.
pub struct LocalClient;

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for LocalClient {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|c| c.0.ip());
        // HTTP/2 names the host in the URI's authority instead of `Host`.
        let host = parts
            .headers
            .get(axum::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .or_else(|| parts.uri.authority().map(|a| a.as_str()));
        match (peer, host) {
            (Some(ip), Some(host)) if ip.is_loopback() && is_loopback_host(host) => Ok(LocalClient),
            _ => Err(ApiError::not_found()),
        }
    }
}

/// `localhost`, an address of the IPv4 loopback network (`127.0.0.1`, `127.32.7.55`, …) or `[::1]`,
/// with any port: the names a browser on this machine uses. A DNS name that resolves to a loopback
/// address is not one of them (DNS rebinding).
fn is_loopback_host(host: &str) -> bool {
    let (name, port) = match host.rfind(':') {
        Some(i) if !host[i..].contains(']') => (&host[..i], Some(&host[i + 1..])),
        _ => (host, None),
    };
    let port_ok =
        port.is_none_or(|p| (1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()));
    port_ok
        && (["localhost", "[::1]"]
            .iter()
            .any(|n| name.eq_ignore_ascii_case(n))
            || name
                .parse::<std::net::Ipv4Addr>()
                .is_ok_and(|ip| ip.is_loopback()))
}

/// The newest 200 mails of the outbox, to `q.to` when given.
async fn dev_mail(state: &AppState, q: MailQuery) -> ApiResult<Vec<MailRow>> {
    let to = q.to.map(|t| t.trim().to_lowercase());
    Ok(state
        .outbox
        .list(to.as_deref(), MailFilter::All, 200)
        .await?)
}

async fn mail_json(
    _local: LocalClient,
    State(state): State<AppState>,
    AppQuery(q): AppQuery<MailQuery>,
) -> ApiResult<Response> {
    let rows = dev_mail(&state, q).await?;
    let fmt = |t: time::OffsetDateTime| {
        t.format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default()
    };
    let mails: Vec<DevMail> = rows
        .into_iter()
        .map(|m| DevMail {
            id: m.id.to_string(),
            to: m.to_email,
            kind: m.kind,
            subject: m.subject,
            text: m.text_body,
            html: m.html_body,
            link: m.link,
            created_at: fmt(m.created_at),
            sent_at: m.sent_at.map(fmt),
        })
        .collect();
    Ok(axum::Json(serde_json::json!({ "mails": mails })).into_response())
}

async fn mail_page(
    _local: LocalClient,
    State(state): State<AppState>,
    AppQuery(q): AppQuery<MailQuery>,
) -> ApiResult<Response> {
    let rows = dev_mail(&state, q).await?;
    let mut html = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Dev mail — Closewise</title>\
         <style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}</style></head><body>\
         <h1>Development mail</h1><p>Mail kept in the outbox (no SMTP_URL set). Newest first. Filter: <code>?to=email</code>.</p>",
    );
    if rows.is_empty() {
        html.push_str("<p>No mail yet.</p>");
    }
    for m in rows {
        html.push_str(&format!(
            "<article><h2>{}</h2><p>To <strong>{}</strong> · {} · {}</p>{}<pre>{}</pre></article>",
            escape(&m.subject),
            escape(&m.to_email),
            escape(&m.kind),
            m.created_at,
            m.link
                .map(|l| format!("<p><a href=\"{0}\">{0}</a></p>", escape(&l)))
                .unwrap_or_default(),
            escape(&m.text_body),
        ));
    }
    html.push_str("</body></html>");
    let csp = [(
        axum::http::header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    )];
    Ok((StatusCode::OK, csp, Html(html)).into_response())
}

#[cfg(test)]
mod tests {
    use super::is_loopback_host;

    #[test]
    fn only_loopback_names_are_loopback_hosts() {
        for ok in [
            "localhost",
            "LOCALHOST:80",
            "127.0.0.1:8080",
            "127.0.0.2",
            "127.32.7.55:41000",
            "[::1]",
            "[::1]:5173",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in [
            "",
            "evil.example",
            "localhost.evil.example",
            "localhost:8080.evil.example",
            "localhost:",
            "localhost:123456",
            "127.0.0.1.evil.example",
            "127.evil.example",
            "127.1",
            "0177.0.0.1",
            "128.0.0.1",
            "10.0.0.1:8080",
            "[::1].evil.example",
            "[::1]x",
            "::1",
        ] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
    }
}
