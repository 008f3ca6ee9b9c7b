use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use closewise_desktop_client::{
    Client, Entitlements, Error, FileStore, KeyringStore, Logout, LogoutScope, Policy,
    SignInOptions, Source, TokenStore,
};

use crate::opt::{Call, Command, Login, Opt};

pub async fn run(opt: Opt) -> anyhow::Result<()> {
    closewise_desktop_client::set_clock_offset(opt.clock_offset);
    let store = open_store(opt.store, &opt.base_url).await?;
    let mut client = Client::new(&opt.base_url, store)?;
    if let Some(app_url) = &opt.app_url {
        client = client.with_app_url(app_url);
    }
    if let Some(path) = &opt.entitlement_jwks {
        // A release binary trusts only its built-in keys: a user who could pass a key of their
        // own could sign their own entitlements.
        anyhow::ensure!(
            cfg!(debug_assertions),
            "--entitlement-jwks is for development builds only"
        );
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let keys = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a JWKS", path.display()))?;
        client = client.with_entitlement_keys(keys);
    }
    match opt.command {
        Command::Login(login) => sign_in(&client, login).await?,
        Command::Whoami => match client.user().await {
            Ok(user) => println!("Signed in as {} ({})", user.email, user.id),
            Err(Error::Unreachable(why)) => {
                let user = client.stored_user().await?.ok_or(Error::SignedOut)?;
                println!("Signed in as {} ({})", user.email, user.id);
                eprintln!("Warning: not checked with the server ({why})");
            }
            Err(e) => return Err(e.into()),
        },
        Command::Entitlements { json } => {
            let answer = client.entitlements().await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&answer)?);
            } else {
                print_entitlements(&answer);
            }
        }
        Command::Policy { json, region } => {
            let e = client.entitlements().await?;
            if json {
                let answer =
                    serde_json::json!({"policy": e.policy, "policy_version": e.policy_version});
                println!("{}", serde_json::to_string_pretty(&answer)?);
            } else {
                print_policy(&e.policy, &e.policy_version, region.as_deref());
            }
        }
        Command::Call(Call::Start { id, app, region }) => {
            // A bad id is refused before anything is sent (the entitlement refresh included).
            if let Some(id) = id.as_deref() {
                closewise_desktop_client::check_client_call_id(id)?;
            }
            // Refreshed before each call when online; the last verified policy offline.
            let e = client.entitlements().await?;
            if let Some(refusal) = app.as_deref().and_then(|a| e.policy.refusal(a)) {
                anyhow::bail!(refusal);
            }
            if let Some(text) = e.policy.consent_text(region.as_deref()) {
                let how = if e.policy.consent_notice.mode == "read_aloud" {
                    "read aloud"
                } else {
                    "shown"
                };
                println!("Consent notice ({how}): {text}");
            }
            let call = client.start_call(id.as_deref()).await?;
            let again = if call.created {
                ""
            } else {
                " (already started)"
            };
            println!("Call started: {}{again}", call.call_id);
            println!("Client call id: {}", call.client_call_id);
            println!("Started at: {}", call.started_at);
            match call.max_seconds {
                Some(max) => println!("Time limit: {max} s"),
                None => println!("Time limit: none"),
            }
        }
        Command::Call(Call::Heartbeat { id }) => {
            let beat = client.heartbeat(&id).await.map_err(|e| ended(&id, e))?;
            let limit = beat
                .max_seconds
                .map_or("no limit".into(), |m| format!("of {m} s"));
            println!(
                "Call {} going on: {} s {limit}",
                beat.call_id, beat.elapsed_seconds
            );
        }
        Command::Call(Call::End { id }) => {
            let ended = client.end_call(&id).await?;
            println!("Call {} ended: {} s", ended.call_id, ended.duration_seconds);
        }
        Command::Logout { all } => {
            let scope = if all {
                LogoutScope::Global
            } else {
                LogoutScope::Local
            };
            match client.logout(scope).await {
                Ok(Logout::Server) => println!("Signed out."),
                Ok(Logout::LocalOnly { reason }) => {
                    println!("Signed out on this computer.");
                    eprintln!("Warning: the server was not told ({reason}).");
                }
                Err(Error::SignedOut) => println!("Not signed in."),
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(())
}

/// A heartbeat that found the call ended says why, with the server's reason code (`plan_lapsed`,
/// `call_time_limit_reached`, `call_ended`), so a script can tell a lapsed plan from a time limit.
fn ended(id: &str, e: Error) -> anyhow::Error {
    match &e {
        Error::PlanLapsed(m) | Error::CallTimeLimitReached(m) | Error::CallEnded(m) => {
            anyhow::anyhow!(
                "call {id} has ended ({}): {m}",
                e.code().unwrap_or("call_ended")
            )
        }
        _ => e.into(),
    }
}

/// `--store PATH`: that file. Otherwise the system keychain for the tokens (the rest in the
/// default file), or the default file alone where no keychain answers.
async fn open_store(path: Option<PathBuf>, base_url: &str) -> anyhow::Result<Box<dyn TokenStore>> {
    if let Some(path) = path {
        return Ok(Box::new(FileStore::new(path)));
    }
    let path = FileStore::default_path()
        .context("no config folder is known here (HOME is not set): pass --store PATH")?;
    let account = base_url.to_string();
    let rest = FileStore::new(path.clone());
    // The keychain speaks D-Bus with its own blocking calls: off the async runtime.
    let keychain = tokio::task::spawn_blocking(move || KeyringStore::new(&account, rest)).await?;
    match keychain {
        Ok(store) => Ok(Box::new(store)),
        Err(e) => {
            eprintln!("Note: {e}; keeping the session in {}", path.display());
            Ok(Box::new(FileStore::new(path)))
        }
    }
}

async fn sign_in(client: &Client, login: Login) -> anyhow::Result<()> {
    let mut options = SignInOptions {
        timeout: Duration::from_secs(login.timeout),
        ..SignInOptions::default()
    };
    if let Some(name) = login.device_name {
        options.device_name = name;
    }
    let user = if login.device {
        client
            .sign_in_with_device(&options, |auth| {
                println!("To sign in, open the address below and enter the code.");
                println!("Code: {}", auth.user_code);
                println!("Open: {}", auth.verification_uri_complete);
                let _ = std::io::stdout().flush();
            })
            .await?
    } else {
        let no_browser = login.no_browser;
        client
            .sign_in_with_browser(&options, |url| {
                if no_browser {
                    println!("Open this address in a browser to sign in:");
                } else {
                    println!("Opening your browser to sign in. If it does not open, visit:");
                }
                println!("Open: {url}");
                std::io::stdout().flush()?;
                if !no_browser {
                    if let Err(e) = open_browser(url) {
                        eprintln!("Warning: cannot open the browser ({e}).");
                    }
                }
                Ok(())
            })
            .await?
    };
    println!("Signed in as {} ({})", user.email, user.id);
    Ok(())
}

/// The system's "open this URL" command; the URL is one argument, never shell text.
fn open_browser(url: &str) -> std::io::Result<()> {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("rundll32");
        c.arg("url.dll,FileProtocolHandler");
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    cmd.arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
}

fn print_entitlements(e: &Entitlements) {
    let plan = match e.plan_type.as_str() {
        "free" => "Free Trial",
        "monthly" => "Unlimited (monthly)",
        other => other,
    };
    println!("Plan: {plan}");
    match &e.calls {
        _ if e.unlimited => println!("Calls: unlimited"),
        Some(c) => println!(
            "Calls: {} of {} used, {} left",
            c.used, c.limit, c.remaining
        ),
        None => println!("Calls: none"),
    }
    match e.max_call_seconds {
        Some(s) => println!("Longest call: {s} s"),
        None => println!("Longest call: no limit"),
    }
    if let Some(n) = e.calls_this_month {
        println!("Calls this month: {n}");
    }
    if e.warning.as_deref() == Some("payment_failed") {
        println!("Warning: your last payment failed. Update your card to keep your plan.");
    } else if let Some(w) = &e.warning {
        println!("Warning: {w}");
    }
    match e.source {
        Source::Online => {}
        Source::Offline => println!(
            "Offline: answered from the last check, good until {}.",
            date(e.valid_until)
        ),
        Source::Grace => println!(
            "Warning: offline since the last check. Connect before {} to keep using Closewise.",
            date(e.grace_until)
        ),
    }
}

fn print_policy(p: &Policy, version: &str, region: Option<&str>) {
    println!("Policy version: {version}");
    match p.consent_text(region) {
        None => println!("Consent notice: off"),
        Some(text) => println!("Consent notice ({}): {text}", p.consent_notice.mode),
    }
    let apps: Vec<&str> = p.allowed_apps.iter().map(String::as_str).collect();
    println!(
        "Allowed apps: {}",
        if apps.is_empty() {
            "none".into()
        } else {
            apps.join(", ")
        }
    );
    let hints: Vec<String> = p
        .hint_categories
        .iter()
        .map(|(c, on)| format!("{c} {}", if *on { "on" } else { "off" }))
        .collect();
    println!("Hints: {}", hints.join(", "));
    match p.retention_days {
        0 => println!("Transcripts: not kept on this computer"),
        d => println!("Transcripts: kept {d} days on this computer"),
    }
    println!(
        "Second factor required: {}",
        if p.require_mfa { "yes" } else { "no" }
    );
    println!("SSO required: {}", if p.require_sso { "yes" } else { "no" });
}

fn date(unix: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(unix)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| unix.to_string())
}
