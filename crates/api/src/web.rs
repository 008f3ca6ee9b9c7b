//! Serves the built web app from `WEB_DIST`: prerendered pages at their paths, the app shell for
//! client-only routes, and the shell with a real 404 status for unknown paths. Hashed assets are
//! cached for a year as immutable; HTML is revalidated. Precompressed `.br` / `.gz` siblings are
//! served when the browser accepts them.
//!
//! `routes.json` (written by the web build) lists `prerendered` and `client` paths and the
//! `shell` file name.
//!
//! A setup link's page, `/setup/{token}`, is the shell with the link's state as its status: 200
//! open, 404 unknown, 410 revoked, expired or finished; never cached, and its URL (the token)
//! never sent on as a referrer.

use std::collections::{HashMap, HashSet};
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

use closewise_core::setup_links::{SetupLinks, SetupLinksError};
use closewise_domain::setup_links::SetupLinkState;

use crate::config::Settings;

#[derive(Deserialize, Default)]
struct RoutesFile {
    #[serde(default)]
    client: Vec<String>,
    #[serde(default)]
    shell: Option<String>,
    /// The analytics host the build was configured with (`VITE_POSTHOG_HOST`), if any.
    #[serde(default)]
    analytics_origin: Option<String>,
}

struct Site {
    dist: PathBuf,
    client_routes: HashSet<String>,
    shell: PathBuf,
    /// The policy for files without inline scripts (assets, robots.txt).
    csp: HeaderValue,
    /// Each HTML file's policy, allowing exactly its own inline scripts by hash.
    page_csp: HashMap<PathBuf, HeaderValue>,
    /// Whose state a setup link's page answers with.
    setup_links: SetupLinks,
}

/// A router that answers every path not claimed by the API.
pub fn router(settings: &Settings, setup_links: SetupLinks) -> Router {
    let dist = settings.web_dist.clone();
    let routes: RoutesFile = std::fs::read_to_string(dist.join("routes.json"))
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default();
    let shell_name = routes.shell.unwrap_or_else(|| "index.html".into());
    // Only a plain http(s) origin goes into the policy.
    let analytics = routes
        .analytics_origin
        .as_deref()
        .and_then(|o| url::Url::parse(o).ok())
        .filter(|u| matches!(u.scheme(), "https" | "http") && u.host_str().is_some())
        .map(|u| u.origin().ascii_serialization());
    let analytics = analytics.as_deref();
    let page_csp = html_files(&dist)
        .into_iter()
        .filter_map(|file| {
            let html = std::fs::read_to_string(&file).ok()?;
            let csp = content_security_policy(&inline_script_hashes(&html), analytics);
            Some((file, HeaderValue::from_str(&csp).expect("CSP is ASCII")))
        })
        .collect();
    let _ = settings;
    let site = Arc::new(Site {
        shell: dist.join(shell_name),
        client_routes: routes.client.into_iter().map(|p| normalise(&p)).collect(),
        dist,
        csp: HeaderValue::from_str(&content_security_policy(&[], analytics)).expect("CSP is ASCII"),
        page_csp,
        setup_links,
    });
    Router::new().fallback(any(move |req: Request| serve(site.clone(), req)))
}

/// No `'unsafe-inline'` for scripts: the prerendered pages' inline scripts (hydration data, the
/// module bootstrap) are allowed by their SHA-256, so an injected script runs nowhere. Analytics
/// may load from and talk to PostHog.
fn content_security_policy(script_hashes: &[String], analytics_origin: Option<&str>) -> String {
    let mut connect_src =
        "connect-src 'self' https://us.i.posthog.com https://eu.i.posthog.com".to_owned();
    if let Some(origin) = analytics_origin {
        connect_src.push(' ');
        connect_src.push_str(origin);
    }
    let mut script_src = vec!["'self'".to_owned()];
    script_src.extend(script_hashes.iter().map(|h| format!("'sha256-{h}'")));
    script_src.push("https://us-assets.i.posthog.com https://eu-assets.i.posthog.com".into());
    [
        "default-src 'self'".to_owned(),
        format!("script-src {}", script_src.join(" ")),
        "style-src 'self' 'unsafe-inline'".into(),
        "img-src 'self' data: https:".into(),
        "font-src 'self' data:".into(),
        connect_src,
        "frame-ancestors 'none'".into(),
        "base-uri 'self'".into(),
        "form-action 'self' http: https:".into(),
        "object-src 'none'".into(),
    ]
    .join("; ")
}

/// Every `.html` file under `dir`.
fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "html") {
                out.push(p);
            }
        }
    }
    out
}

/// The base64 SHA-256 of each inline `<script>` that a browser would run (no `src`, a script
/// type), as CSP hashes them: over the exact text between the tags.
fn inline_script_hashes(html: &str) -> Vec<String> {
    use base64::Engine;
    use sha2::Digest;
    let mut hashes = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let after = &rest[start..];
        let Some(tag_end) = after.find('>') else {
            break;
        };
        let tag = &after[..tag_end];
        let body_and_more = &after[tag_end + 1..];
        let Some(close) = body_and_more.find("</script>") else {
            break;
        };
        let body = &body_and_more[..close];
        let lower = tag.to_ascii_lowercase();
        let has_src = lower.contains(" src=");
        let data_block = lower
            .split("type=")
            .nth(1)
            .map(|t| {
                let t = t.trim_start_matches(['"', '\'']);
                !(t.starts_with("module") || t.starts_with("text/javascript"))
            })
            .unwrap_or(false);
        if !has_src && !data_block && !body.is_empty() {
            let digest = sha2::Sha256::digest(body.as_bytes());
            let hash = base64::engine::general_purpose::STANDARD.encode(digest);
            if !hashes.contains(&hash) {
                hashes.push(hash);
            }
        }
        rest = &body_and_more[close + "</script>".len()..];
    }
    hashes
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
    if let Some(token) = setup_token(&path) {
        return setup_page(&site, &token, req).await;
    }
    let Some(file) = safe_join(&site.dist, &path) else {
        return not_found(&site, req).await;
    };
    let is_asset = path.starts_with("/assets/");
    // 1. The exact file (assets, robots.txt, sitemap.xml, favicon).
    if file.is_file() {
        return finish_file(&site, send(file.clone(), req).await, is_asset, Some(&file));
    }
    // 2. A prerendered page: /path/index.html.
    let index = file.join("index.html");
    if index.is_file() {
        return finish_file(&site, send(index.clone(), req).await, false, Some(&index));
    }
    // 3. A client-only route: the app shell.
    if site.client_routes.contains(&normalise(&path)) && site.shell.is_file() {
        let shell = site.shell.clone();
        return finish_file(&site, send(shell.clone(), req).await, false, Some(&shell));
    }
    not_found(&site, req).await
}

/// The token of a setup link's page path (`/setup/<token>`).
fn setup_token(path: &str) -> Option<String> {
    let token = path.strip_prefix("/setup/")?.trim_end_matches('/');
    (!token.is_empty() && !token.contains('/')).then(|| percent_decode(token))?
}

/// The shell with the link's state as its status (the page reads the rest from the API).
async fn setup_page(site: &Site, token: &str, req: Request) -> Response {
    let status = match site.setup_links.state(token).await {
        Ok(SetupLinkState::Open) => StatusCode::OK,
        Ok(_) => StatusCode::GONE,
        Err(SetupLinksError::NotFound) => StatusCode::NOT_FOUND,
        Err(e) => {
            tracing::error!(error = %format!("{e:#}"), "setup link look-up failed");
            StatusCode::SERVICE_UNAVAILABLE
        }
    };
    let mut res = if site.shell.is_file() {
        let shell = site.shell.clone();
        finish_file(site, send(shell.clone(), req).await, false, Some(&shell))
    } else {
        "Setup".into_response()
    };
    *res.status_mut() = status;
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    res
}

async fn not_found(site: &Site, req: Request) -> Response {
    if site.shell.is_file() {
        let shell = site.shell.clone();
        let mut res = finish_file(site, send(shell.clone(), req).await, false, Some(&shell));
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

fn finish_file(site: &Site, mut res: Response, immutable: bool, file: Option<&Path>) -> Response {
    let ok = res.status().is_success();
    let h = res.headers_mut();
    let cache = if immutable && ok {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    let csp = file
        .and_then(|f| site.page_csp.get(f))
        .unwrap_or(&site.csp)
        .clone();
    h.insert(header::CONTENT_SECURITY_POLICY, csp);
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_scripts_are_hashed_and_data_blocks_and_external_scripts_are_not() {
        let html = r#"<head><script type="application/ld+json">{"a":1}</script>
            <script>window.x=1</script><script src="/assets/a.js"></script>
            <script type="module" async="">import "/assets/b.js";</script>
            <script>window.x=1</script></head>"#;
        let hashes = inline_script_hashes(html);
        // echo -n 'window.x=1' | openssl dgst -sha256 -binary | base64
        assert_eq!(hashes.len(), 2, "{hashes:?}");
        assert_eq!(hashes[0], "hUmDl3yY/7GaaX+Zuy8aEy8IzxgpBs7xccqYHs2/7kQ=");
        let csp = content_security_policy(&hashes, Some("https://analytics.example"));
        assert!(csp.contains("connect-src 'self' https://us.i.posthog.com https://eu.i.posthog.com https://analytics.example"), "{csp}");
        assert!(
            csp.contains("script-src 'self' 'sha256-hUmDl3yY/7GaaX+Zuy8aEy8IzxgpBs7xccqYHs2/7kQ='"),
            "{csp}"
        );
        assert!(!csp.contains("'unsafe-inline' https://us-assets"), "{csp}");
        assert!(!csp
            .split(';')
            .any(|d| d.trim().starts_with("script-src") && d.contains("unsafe-inline")));
    }

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

    #[test]
    fn a_setup_page_path_names_one_token() {
        assert_eq!(setup_token("/setup/abc_-9"), Some("abc_-9".into()));
        assert_eq!(setup_token("/setup/abc/"), Some("abc".into()));
        assert_eq!(setup_token("/setup/"), None);
        assert_eq!(setup_token("/setup"), None);
        assert_eq!(setup_token("/setup/a/b"), None);
    }
}
