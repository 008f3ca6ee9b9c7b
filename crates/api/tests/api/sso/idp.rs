//! The tests' identity providers, each on a free port and installed from its folder's lockfile
//! with `npm ci` on first use (the e2e suite starts the same ones): the OpenID provider
//! `crates/testkit/oidc/provider.mjs` (panva's oidc-provider) and the SAML IdP
//! `crates/testkit/saml/idp.mjs` (samlify); and a browser's round trip through them with a cookie
//! jar.

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

fn testkit_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testkit")
        .join(name)
}

static INSTALL: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// `npm ci` in `crates/testkit/<dir>` once per test process when `package` is not installed
/// there; fails loudly.
fn install(dir: &'static str, package: &str) {
    let mut done = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if done.contains(&dir)
        || testkit_dir(dir)
            .join(format!("node_modules/{package}/package.json"))
            .exists()
    {
        done.push(dir);
        return;
    }
    let status = std::process::Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(testkit_dir(dir))
        .status()
        .unwrap_or_else(|_| panic!("the SSO tests need Node.js and npm (to install {package})"));
    assert!(status.success(), "npm ci in crates/testkit/{dir} failed");
    done.push(dir);
}

/// Runs `crates/testkit/<dir>/<script>` with `config` and waits for its `READY <url>` line: the
/// URL, and the process (ended when dropped).
pub async fn spawn(dir: &'static str, script: &str, config: &serde_json::Value) -> (String, Child) {
    let mut child = Command::new("node")
        .arg(testkit_dir(dir).join(script))
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
    let url = loop {
        // Generous: the suite starts many providers at once on two busy cores (each makes an
        // RSA key and loads its packages); 20 s was once not enough in CI.
        let line = tokio::time::timeout(STARTUP, lines.next_line())
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "{script} did not start in {STARTUP:?}; stderr:\n{}",
                    stderr()
                )
            })
            .unwrap()
            .unwrap_or_else(|| panic!("{script} ended before READY; stderr:\n{}", stderr()));
        if let Some(url) = line.strip_prefix("READY ") {
            break url.to_string();
        }
    };
    // Keep reading: the provider logs notices, and a closed pipe would end it.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (url, child)
}

impl Idp {
    /// A provider whose client redirects to `app`'s callback, with `users` (address →
    /// `email_verified`).
    pub async fn start(app: &TestApp, users: &[(&str, bool)]) -> Idp {
        let users: serde_json::Map<_, _> = users
            .iter()
            .map(|(e, v)| (e.to_string(), json!({ "email_verified": v })))
            .collect();
        Idp::start_with(app, users.into()).await
    }

    /// A provider with `users` as `provider.mjs` takes them (address → `{email_verified,
    /// claims}`).
    pub async fn start_with(app: &TestApp, users: serde_json::Value) -> Idp {
        install("oidc", "oidc-provider");
        let config = json!({
            "client_id": CLIENT_ID,
            "client_secret": CLIENT_SECRET,
            "redirect_uri": format!("{}/api/auth/sso/callback", app.state.settings.base_url),
            "users": users,
        });
        let (issuer, child) = spawn("oidc", "provider.mjs", &config).await;
        Idp {
            issuer,
            _child: child,
        }
    }
}

/// The tests' SAML identity provider: `crates/testkit/saml/idp.mjs` (samlify), knowing our SP by
/// the team's metadata as the app serves it.
pub struct SamlIdp {
    pub base: String,
    _child: Child,
}

impl SamlIdp {
    pub async fn start(app: &TestApp, team_id: uuid::Uuid, users: serde_json::Value) -> SamlIdp {
        Self::start_with(app, team_id, users, json!({})).await
    }

    /// `start` with more of idp.mjs's configuration (`cert_days`).
    pub async fn start_with(
        app: &TestApp,
        team_id: uuid::Uuid,
        users: serde_json::Value,
        more: serde_json::Value,
    ) -> SamlIdp {
        install("saml", "samlify");
        let url = app.url(&format!("/api/auth/saml/{team_id}/metadata"));
        let res = reqwest::get(url).await.unwrap();
        assert_eq!(res.status(), reqwest::StatusCode::OK);
        let sp_metadata = res.text().await.unwrap();
        let mut config = json!({ "sp_metadata": sp_metadata, "users": users });
        config
            .as_object_mut()
            .unwrap()
            .extend(more.as_object().unwrap().clone());
        let (base, child) = spawn("saml", "idp.mjs", &config).await;
        SamlIdp {
            base,
            _child: child,
        }
    }

    /// What its metadata URL without `cert` serves from now on (`cert=both`, `fail=1`...).
    pub async fn control(&self, query: &str) {
        let res = reqwest::get(format!("{}/control?{query}", self.base))
            .await
            .unwrap();
        assert!(res.status().is_success(), "{query}");
    }

    /// Its metadata's URL; `cert`: `other` (another key's certificate) or `both` (a rotation).
    pub fn metadata_url(&self, cert: Option<&str>) -> String {
        match cert {
            Some(cert) => format!("{}/metadata?cert={cert}", self.base),
            None => format!("{}/metadata", self.base),
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

    /// The SAML IdP's page at `idp_url` (the IdP's `/sso?…` or `/initiate?…`): the form it would
    /// post, as (ACS URL, SAMLResponse, RelayState).
    pub async fn idp_form(&self, idp_url: &str) -> (String, String, Option<String>) {
        let res = self.client.get(idp_url).send().await.unwrap();
        assert_eq!(res.status(), reqwest::StatusCode::OK, "{idp_url}");
        let page = res.text().await.unwrap();
        let attr = |name: &str| -> Option<String> {
            let marker = format!("name=\"{name}\" value=\"");
            let at = page.find(&marker)? + marker.len();
            let end = page[at..].find('"')? + at;
            Some(
                page[at..end]
                    .replace("&quot;", "\"")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&"),
            )
        };
        let action_at = page.find("action=\"").expect("a form") + 8;
        let action =
            page[action_at..page[action_at..].find('"').unwrap() + action_at].replace("&amp;", "&");
        (
            action,
            attr("SAMLResponse").expect("a SAMLResponse"),
            attr("RelayState"),
        )
    }

    /// Posts a SAML response to the app's ACS as the IdP's page would, then follows the
    /// redirects; the page of the app it lands on.
    pub async fn post_acs(
        &self,
        app: &TestApp,
        acs: &str,
        saml_response: &str,
        relay_state: Option<&str>,
    ) -> String {
        let base = app
            .state
            .settings
            .base_url
            .trim_end_matches('/')
            .to_string();
        let url = acs.replacen(&base, &app.address, 1);
        let mut form = vec![("SAMLResponse", saml_response)];
        if let Some(relay) = relay_state {
            form.push(("RelayState", relay));
        }
        let res = self.client.post(&url).form(&form).send().await.unwrap();
        assert_eq!(
            res.status(),
            reqwest::StatusCode::SEE_OTHER,
            "{}",
            res.text().await.unwrap_or_default()
        );
        let location = res.headers()["location"].to_str().unwrap().to_string();
        if location.starts_with("/api/") {
            return self.follow(app, &app.url(&location)).await;
        }
        location
    }

    /// A SAML sign-in from the app's start URL: to the IdP (its URL changed by `at_idp`, as a
    /// test's knob), its form posted to the ACS; where the browser lands.
    pub async fn saml_sign_in(
        &self,
        app: &TestApp,
        start: &str,
        at_idp: impl FnOnce(String) -> String,
    ) -> String {
        let res = self.client.get(start).send().await.unwrap();
        assert_eq!(res.status(), reqwest::StatusCode::FOUND);
        let to_idp = res.headers()["location"].to_str().unwrap().to_string();
        if !to_idp.contains("SAMLRequest=") {
            return to_idp;
        }
        let (acs, response, relay) = self.idp_form(&at_idp(to_idp)).await;
        self.post_acs(app, &acs, &response, relay.as_deref()).await
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
