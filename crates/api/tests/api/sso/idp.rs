//! The test's OpenID provider: `crates/testkit/oidc/provider.mjs` (panva's oidc-provider, from
//! that folder's lockfile: installed with `npm ci` on first use; the e2e suite starts the same
//! one) on a free port, and a browser's round trip through it with a cookie jar.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Mutex;

use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::helpers::*;

pub const CLIENT_ID: &str = "closewise-test";
pub const CLIENT_SECRET: &str = "closewise-test-secret-0123456789";

/// How long a provider may take to print `READY`.
const STARTUP: std::time::Duration = std::time::Duration::from_secs(90);

pub struct Idp {
    pub issuer: String,
    _child: Child,
}

fn oidc_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testkit/oidc")
}

static INSTALL: Mutex<bool> = Mutex::new(false);

/// `npm ci` once per test process when the provider is not installed; fails loudly.
fn install() {
    let mut done = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if *done
        || oidc_dir()
            .join("node_modules/oidc-provider/package.json")
            .exists()
    {
        *done = true;
        return;
    }
    let status = std::process::Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(oidc_dir())
        .status()
        .expect("the SSO tests need Node.js and npm (to install oidc-provider)");
    assert!(status.success(), "npm ci in crates/testkit/oidc failed");
    *done = true;
}

impl Idp {
    /// A provider whose client redirects to `app`'s callback, with `users` (address →
    /// `email_verified`).
    pub async fn start(app: &TestApp, users: &[(&str, bool)]) -> Idp {
        install();
        let users: serde_json::Map<_, _> = users
            .iter()
            .map(|(e, v)| (e.to_string(), json!({ "email_verified": v })))
            .collect();
        let config = json!({
            "client_id": CLIENT_ID,
            "client_secret": CLIENT_SECRET,
            "redirect_uri": format!("{}/api/auth/sso/callback", app.state.settings.base_url),
            "users": users,
        });
        let mut child = Command::new("node")
            .arg(oidc_dir().join("provider.mjs"))
            .arg(config.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the SSO tests need Node.js (`node`) on the PATH");
        // What the provider says on stderr, to show if it does not start.
        let said = std::sync::Arc::new(Mutex::new(String::new()));
        let mut errors = BufReader::new(child.stderr.take().unwrap()).lines();
        let heard = said.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = errors.next_line().await {
                let mut heard = heard.lock().unwrap_or_else(|e| e.into_inner());
                if heard.len() < 4096 {
                    heard.push_str(&line);
                    heard.push('\n');
                }
            }
        });
        let stderr = || said.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let issuer = loop {
            // Generous: the suite starts many providers at once on two busy cores (each makes an
            // RSA key and loads oidc-provider); 20 s was once not enough in CI.
            let line = tokio::time::timeout(STARTUP, lines.next_line())
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "oidc-provider did not start in {STARTUP:?}; stderr:\n{}",
                        stderr()
                    )
                })
                .unwrap()
                .unwrap_or_else(|| {
                    panic!("oidc-provider ended before READY; stderr:\n{}", stderr())
                });
            if let Some(issuer) = line.strip_prefix("READY ") {
                break issuer.to_string();
            }
        };
        // Keep reading: the provider logs notices, and a closed pipe would end it.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Idp {
            issuer,
            _child: child,
        }
    }
}

/// A browser: a cookie jar, redirects followed by hand so the app's configured base URL
/// (`http://127.0.0.1:8080` in tests) is sent to the app's real address.
pub struct Browser {
    pub client: reqwest::Client,
}

impl Browser {
    pub fn new() -> Self {
        Browser {
            client: reqwest::Client::builder()
                .cookie_store(true)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
        }
    }

    /// Follows redirects from `url` until one lands on a page of the app (not `/api/`); that
    /// page's path and query.
    pub async fn follow(&self, app: &TestApp, url: &str) -> String {
        let base = app
            .state
            .settings
            .base_url
            .trim_end_matches('/')
            .to_string();
        let mut url = reqwest::Url::parse(url).unwrap();
        for _ in 0..20 {
            let res = self.client.get(url.clone()).send().await.unwrap();
            let status = res.status();
            assert!(
                status.is_redirection(),
                "{url} answered {status}: {}",
                res.text().await.unwrap_or_default()
            );
            let location = res.headers()["location"].to_str().unwrap().to_string();
            let next = url.join(&location).unwrap();
            let on_app =
                next.as_str().starts_with(&base) || next.as_str().starts_with(&app.address);
            let path = &next[url::Position::BeforePath..];
            if on_app && !path.starts_with("/api/") {
                return path.to_string();
            }
            url = if on_app {
                reqwest::Url::parse(&app.url(path)).unwrap()
            } else {
                next
            };
        }
        panic!("more than 20 redirects");
    }

    /// The refresh grant with this browser's cookie, as our pages call it.
    pub async fn session(&self, app: &TestApp) -> (reqwest::StatusCode, serde_json::Value) {
        let res = self
            .client
            .post(app.url("/api/auth/token?grant_type=refresh_token"))
            .header("origin", &app.state.settings.base_url)
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        body(res).await
    }
}
