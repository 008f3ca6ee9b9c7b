//! Serves the built web app from `WEB_DIST`: prerendered pages at their paths, the app shell for
//! client-only routes, and the shell with a real 404 status for unknown paths. Hashed assets are
//! cached for a year as immutable; HTML is revalidated. Precompressed `.br` / `.gz` siblings are
//! served when the browser accepts them.
//!
//! `routes.json` (written by the web build) lists `prerendered` and `client` paths and the
//! `shell` file name.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;
use serde::Deserialize;
use tower::ServiceExt;
use tower_http::services::ServeFile;

use crate::config::Settings;

#[derive(Deserialize, Default)]
struct RoutesFile {
    #[serde(default)]
    client: Vec<String>,
    #[serde(default)]
    shell: Option<String>,
}

struct Site {
    dist: PathBuf,
    client_routes: HashSet<String>,
    shell: PathBuf,
    csp: HeaderValue,
}

/// A router that answers every path not claimed by the API.
pub fn router(settings: &Settings) -> Router {
    let dist = settings.web_dist.clone();
    let routes: RoutesFile = std::fs::read_to_string(dist.join("routes.json"))
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default();
    let shell_name = routes.shell.unwrap_or_else(|| "index.html".into());
    let site = Arc::new(Site {
        shell: dist.join(shell_name),
        client_routes: routes.client.into_iter().map(|p| normalise(&p)).collect(),
        dist,
        csp: HeaderValue::from_str(&content_security_policy(settings)).expect("CSP is ASCII"),
    });
    Router::new().fallback(any(move |req: Request| serve(site.clone(), req)))
}

fn content_security_policy(settings: &Settings) -> String {
    // Inline scripts carry the prerendered pages' hydration data and JSON-LD; analytics may
    // talk to PostHog.
    let _ = settings;
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://us-assets.i.posthog.com https://eu-assets.i.posthog.com",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: https:",
        "font-src 'self' data:",
        "connect-src 'self' https://us.i.posthog.com https://eu.i.posthog.com",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self' http: https:",
        "object-src 'none'",
    ]
    .join("; ")
}

fn normalise(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        "/".into()
    } else {
        trimmed.to_string()
    }
}

/// Maps a URL path to a file under `dist`, refusing anything that climbs out of it.
fn safe_join(dist: &Path, url_path: &str) -> Option<PathBuf> {
    let mut out = dist.to_path_buf();
    for part in url_path.split('/').filter(|p| !p.is_empty()) {
        let decoded = percent_decode(part)?;
        let p = Path::new(&decoded);
        let mut comps = p.components();
        match (comps.next(), comps.next()) {
            (Some(Component::Normal(c)), None) => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

fn percent_decode(s: &str) -> Option<String> {
    url::form_urlencoded::parse(format!("x={}", s.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
}

async fn serve(site: Arc<Site>, req: Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "Method not allowed").into_response();
    }
    let path = req.uri().path().to_string();
    let Some(file) = safe_join(&site.dist, &path) else {
        return not_found(&site, req).await;
    };
    let is_asset = path.starts_with("/assets/");
    // 1. The exact file (assets, robots.txt, sitemap.xml, favicon).
    if file.is_file() {
        return finish(&site, send(file, req).await, is_asset);
    }
    // 2. A prerendered page: /path/index.html.
    let index = file.join("index.html");
    if index.is_file() {
        return finish(&site, send(index, req).await, false);
    }
    // 3. A client-only route: the app shell.
    if site.client_routes.contains(&normalise(&path)) && site.shell.is_file() {
        return finish(&site, send(site.shell.clone(), req).await, false);
    }
    not_found(&site, req).await
}

async fn not_found(site: &Site, req: Request) -> Response {
    if site.shell.is_file() {
        let mut res = finish(site, send(site.shell.clone(), req).await, false);
        *res.status_mut() = StatusCode::NOT_FOUND;
        return res;
    }
    (StatusCode::NOT_FOUND, "Not found").into_response()
}

async fn send(file: PathBuf, req: Request) -> Response {
    let service = ServeFile::new(file).precompressed_br().precompressed_gzip();
    match service.oneshot(req).await {
        Ok(res) => res.map(Body::new),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

fn finish(site: &Site, mut res: Response, immutable: bool) -> Response {
    let ok = res.status().is_success();
    let h = res.headers_mut();
    let cache = if immutable && ok {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::CONTENT_SECURITY_POLICY, site.csp.clone());
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_cannot_climb_out_of_the_site() {
        let dist = Path::new("/srv/site");
        assert_eq!(
            safe_join(dist, "/assets/app.js"),
            Some(PathBuf::from("/srv/site/assets/app.js"))
        );
        assert_eq!(safe_join(dist, "/../etc/passwd"), None);
        assert_eq!(safe_join(dist, "/%2e%2e/etc/passwd"), None);
        assert_eq!(safe_join(dist, "/a/%2F/b"), None);
    }
}
