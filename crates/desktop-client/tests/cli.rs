//! The `closewise-desktop` binary as a test harness (Playwright) drives it: the `Open:` line on
//! stdout before it waits, the answers to the loopback redirect, and the session commands against
//! the real API.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use closewise_testkit::app::{spawn_app_with, Backend, TestApp};
use closewise_testkit::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_closewise-desktop");

fn desktop(base_url: &str, store: &PathBuf) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_remove("CLOSEWISE_URL")
        .env_remove("CLOSEWISE_APP_URL")
        .args(["--base-url", base_url, "--store"])
        .arg(store);
    cmd
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `login --no-browser`, reads the `Open:` line while the process waits, and lets `answer`
/// play the browser with the consent page's URL.
async fn login_no_browser(answer: impl FnOnce(url::Url) -> String) -> (Output, String) {
    let dir = TempDir::new();
    let mut child = desktop("http://127.0.0.1:9", &dir.0.join("s.json"))
        .args([
            "login",
            "--no-browser",
            "--timeout",
            "20",
            "--device-name",
            "CI box",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut open = String::new();
    while !open.starts_with("Open: ") {
        open.clear();
        assert_ne!(stdout.read_line(&mut open).unwrap(), 0, "no Open: line");
    }
    let url = url::Url::parse(open.trim_start_matches("Open: ").trim()).unwrap();
    let page = answer(url);
    let out = child.wait_with_output().unwrap();
    (out, page)
}

fn param(url: &url::Url, name: &str) -> String {
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| panic!("{name} in {url}"))
}

fn get(url: &str) -> String {
    let url = url::Url::parse(url).unwrap();
    let mut s =
        std::net::TcpStream::connect((url.host_str().unwrap(), url.port().unwrap())).unwrap();
    use std::io::{Read, Write};
    let target = format!("{}?{}", url.path(), url.query().unwrap_or(""));
    write!(s, "GET {target} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut page = String::new();
    s.read_to_string(&mut page).unwrap();
    page
}

#[tokio::test]
async fn login_prints_the_consent_page_then_reports_a_denial_in_the_browser() {
    let (out, page) = login_no_browser(|url| {
        assert_eq!(url.path(), "/authorize");
        assert_eq!(param(&url, "client_id"), "closewise-desktop");
        assert_eq!(param(&url, "code_challenge_method"), "S256");
        assert_eq!(param(&url, "device_name"), "CI box");
        let redirect = param(&url, "redirect_uri");
        assert!(redirect.starts_with("http://127.0.0.1:"), "{redirect}");
        get(&format!(
            "{redirect}?error=access_denied&state={}",
            param(&url, "state")
        ))
    })
    .await;
    let (_, stderr) = text(&out);
    assert!(
        page.contains("You can return to the Closewise app"),
        "{page}"
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("Sign-in was cancelled in the browser."),
        "{stderr}"
    );
}

#[tokio::test]
async fn login_answers_400_to_a_redirect_with_another_state_and_keeps_waiting_for_ours() {
    let (out, forged) = login_no_browser(|url| {
        let redirect = param(&url, "redirect_uri");
        let forged = get(&format!("{redirect}?code=stolen&state=not-ours"));
        // Still listening: our own answer ends the sign-in.
        get(&format!(
            "{redirect}?error=access_denied&state={}",
            param(&url, "state")
        ));
        forged
    })
    .await;
    let (_, stderr) = text(&out);
    assert!(forged.starts_with("HTTP/1.1 400"), "{forged}");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("Sign-in was cancelled in the browser."),
        "{stderr}"
    );
}

/// A session file for a confirmed user, as the client writes it.
async fn signed_in_store(app: &TestApp, dir: &TempDir) -> PathBuf {
    let s = app
        .signed_in_user("ana@example.com", "correct horse battery staple 1")
        .await;
    let stored = closewise_desktop_client::StoredSession {
        refresh_token: s["refresh_token"].as_str().unwrap().into(),
        access_token: s["access_token"].as_str().unwrap().into(),
        expires_at: s["expires_at"].as_i64().unwrap(),
        user_id: s["user"]["id"].as_str().unwrap().into(),
        email: "ana@example.com".into(),
        entitlement_token: None,
        highest_seen: 0,
    };
    let path = dir.0.join("session.json");
    use closewise_desktop_client::TokenStore;
    closewise_desktop_client::FileStore::new(&path)
        .save(&stored)
        .unwrap();
    path
}

#[tokio::test]
async fn whoami_and_logout_work_against_the_api() {
    let app = spawn_app_with(Backend::Sqlite, |_| {}).await;
    let dir = TempDir::new();
    let store = signed_in_store(&app, &dir).await;
    let run = |args: &'static [&'static str]| {
        let mut cmd = desktop(&app.address, &store);
        cmd.args(args);
        tokio::task::spawn_blocking(move || cmd.output().unwrap())
    };

    let out = run(&["whoami"]).await.unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.starts_with("Signed in as ana@example.com ("),
        "{stdout}"
    );

    let out = run(&["logout"]).await.unwrap();
    assert_eq!(text(&out).0, "Signed out.\n");
    assert!(!store.exists(), "the session file is gone");

    let out = run(&["whoami"]).await.unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out)
        .1
        .contains("You are signed out. Sign in to continue."));
}

#[test]
fn the_hidden_clock_offset_refuses_to_move_the_clock_back() {
    let dir = TempDir::new();
    let store = dir.0.join("s.json");
    let out = desktop("http://127.0.0.1:9", &store)
        .args(["--clock-offset", "-86400", "entitlements"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out).1);
    let out = desktop("http://127.0.0.1:9", &store)
        .env("CLOSEWISE_DESKTOP_CLOCK_OFFSET", "-1")
        .arg("entitlements")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out).1);
    assert!(text(&out).1.contains("-1"), "{}", text(&out).1);
}

#[test]
fn a_bad_call_id_is_refused_before_anything_is_sent() {
    let dir = TempDir::new();
    let out = desktop("http://127.0.0.1:9", &dir.0.join("s.json"))
        .args(["call", "start", "--id", "no spaces"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("is not a call id"));
}

/// The development key file is named at run time by `CLOSEWISE_ENTITLEMENT_JWKS_FILE` (what
/// `./just desktop` sets). `CLOSEWISE_ENTITLEMENT_JWKS` is the build's own list of keys (a JWKS,
/// read when the client is compiled): sharing that name made `./just desktop` compile a path in as
/// the key list, and every run then stopped on it.
#[tokio::test]
async fn the_key_file_named_at_run_time_pins_the_development_servers_key() {
    let app = spawn_app_with(Backend::Sqlite, |_| {}).await;
    let dir = TempDir::new();
    let store = signed_in_store(&app, &dir).await;
    let jwks = reqwest::get(format!("{}/.well-known/jwks.json", app.address))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let keys = dir.0.join("dev-jwks.json");
    std::fs::write(&keys, jwks).unwrap();
    let mut cmd = desktop(&app.address, &store);
    cmd.env("CLOSEWISE_ENTITLEMENT_JWKS_FILE", &keys).args([
        "--app-url",
        &app.state.settings.base_url,
        "entitlements",
    ]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("Free Trial"), "{stdout}");
}
