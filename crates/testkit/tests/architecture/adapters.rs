//! The adapters are parse -> one call -> render. An API handler (a function with
//! `#[utoipa::path]` or named in a `routes!`) makes at most one call to a core service that
//! changes something, and neither reaches the store nor writes an audit row or a mail itself; the
//! CLI's commands that go through a service do the same.
//!
//! The heuristic: a handler's calls are the `state.<service>.<method>(` in its body (whitespace
//! aside); a call is a change unless `READS` lists it or its service is one of `NOT_SERVICES`.

use std::collections::BTreeSet;
use std::path::Path;

/// Calls that read (or check) and change nothing.
pub const READS: &[&str] = &[
    "accounts.user",
    "billing.buyer",
    "billing.plan_view",
    "billing.subscription",
    "billing.team_for",
    "desktop.devices",
    "desktop.lookup",
    "domains.list",
    "mfa.status",
    "scim.tokens",
    "sessions.holder",
    "sso.discover",
    "sso.show",
    "teams.activity",
    "teams.activity_export",
    "teams.caller",
    "teams.invites_page",
    "teams.join_requests",
    "teams.joinable",
    "teams.lookup",
    "teams.members_page",
    "teams.policy",
    "teams.usage",
    "teams.usage_export",
    "teams.view",
    "usage.entitlements",
];

/// Parts of the state that are no core service: the clock and the signing keys.
pub const NOT_SERVICES: &[&str] = &["clock", "keys", "settings", "limits"];

/// What no handler body contains: the store, an audit row, a mail.
pub const FORBIDDEN: &[&str] = &[
    "state.store.",
    "record_audit",
    "audit(&state",
    "enqueue_mail",
    ".compose(",
];

/// One handler: its file, its name and its body without whitespace.
#[derive(Debug)]
pub struct Handler {
    pub file: String,
    pub name: String,
    pub body: String,
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The functions a file's `routes!(...)` lists name, as `module::name` (the last two segments of
/// each path; `name` alone for one of the same file).
fn routed(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for part in text.split("routes!(").skip(1) {
        let list = part.split(')').next().unwrap_or("");
        for path in list.split(',') {
            let segments: Vec<&str> = path.trim().split("::").collect();
            let tail = &segments[segments.len().saturating_sub(2)..];
            if !tail.concat().is_empty() {
                names.insert(tail.join("::"));
            }
        }
    }
    names
}

/// The module a source file is: `team/activity.rs` is `activity`, `team/mod.rs` is `team`.
fn module_of(file: &str) -> &str {
    let file = file.trim_end_matches(".rs");
    match file.rsplit_once('/') {
        Some((dir, "mod")) => dir.rsplit('/').next().unwrap_or(dir),
        Some((_, stem)) => stem,
        None => file,
    }
}

/// The body of the block opening at the first `{` ending a line from `from` (a function's, as
/// rustfmt lays it out: a pattern's braces in the signature do not end a line), braces balanced.
fn block(text: &str, from: usize) -> Option<&str> {
    let open = from + text[from..].find("{\n")?;
    let mut depth = 0usize;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[open..open + i + 1]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The handlers of one source file; `routes` are the names routed anywhere in the crate.
pub fn handlers(file: &str, text: &str, routes: &BTreeSet<String>) -> Vec<Handler> {
    let mut out = Vec::new();
    let mut previous_end = 0;
    let mut at = 0;
    while let Some(found) = text[at..].find("async fn ") {
        let start = at + found;
        let name = ident_at(&text[start + "async fn ".len()..]).to_owned();
        let annotated = text[previous_end..start].contains("#[utoipa::path");
        let Some(body) = block(text, start) else {
            break;
        };
        let end = start + text[start..].find(body).unwrap_or(0) + body.len();
        let routed =
            routes.contains(&format!("{}::{name}", module_of(file))) || routes.contains(&name);
        if annotated || routed {
            out.push(Handler {
                file: file.to_owned(),
                name,
                body: body.split_whitespace().collect(),
            });
        }
        previous_end = end;
        at = end;
    }
    out
}

/// The `service.method` of every `state.<service>.<method>(` in a body.
pub fn calls(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in body.match_indices("state.") {
        let before = body[..i].chars().last();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let rest = &body[i + "state.".len()..];
        let service = ident_at(rest);
        let Some(after) = rest[service.len()..].strip_prefix('.') else {
            continue;
        };
        let method = ident_at(after);
        if !method.is_empty() && after[method.len()..].starts_with('(') {
            out.push(format!("{service}.{method}"));
        }
    }
    out
}

/// The calls of a body that change something.
pub fn writes(body: &str) -> Vec<String> {
    calls(body)
        .into_iter()
        .filter(|c| !READS.contains(&c.as_str()))
        .filter(|c| !NOT_SERVICES.contains(&c.split('.').next().unwrap_or("")))
        .collect()
}

/// What is wrong with a handler: more than one change, or a forbidden reach.
pub fn faults(h: &Handler) -> Vec<String> {
    let mut out = Vec::new();
    let writes = writes(&h.body);
    if writes.len() > 1 {
        out.push(format!(
            "{} {}: {} changes {writes:?}",
            h.file,
            h.name,
            writes.len()
        ));
    }
    for f in FORBIDDEN {
        if h.body.contains(f) {
            out.push(format!("{} {}: {f}", h.file, h.name));
        }
    }
    out
}

/// Every handler of crates/api/src.
pub fn api_handlers(src: &Path, files: &[std::path::PathBuf]) -> Vec<Handler> {
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let name = f.strip_prefix(src).unwrap().display().to_string();
            (name, std::fs::read_to_string(f).unwrap())
        })
        .collect();
    let routes: BTreeSet<String> = texts.iter().flat_map(|(_, t)| routed(t)).collect();
    texts
        .iter()
        .flat_map(|(name, text)| handlers(name, text, &routes))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BAD: &str = r#"
#[utoipa::path(post, path = "/api/team/invites", tag = "teams")]
pub async fn invite(State(state): State<AppState>, auth: AuthUser) -> ApiResult<StatusCode> {
    let team = state.teams.caller(auth.user_id, Action::Invite).await?;
    let inv = state
        .teams
        .invite(auth.user_id, &body.email)
        .await?;
    state.store.enqueue_mail(&mail).await?;
    audit(&state, &auth, "team.invite", None, None, json!({ "team_id": team })).await?;
    Ok(StatusCode::ACCEPTED)
}

async fn helper(state: &AppState) {
    state.teams.leave(x).await;
    state.teams.revoke(y).await;
}

pub async fn routed_one(State(state): State<AppState>) -> StatusCode {
    state.teams.rename(a).await;
    state.teams.transfer(b).await;
    StatusCode::OK
}
"#;

    #[test]
    fn a_handler_with_two_changes_and_its_own_audit_and_mail_is_caught() {
        let routes = routed("OpenApiRouter::new().routes(routes!(bad::routed_one, other::helper))");
        let found = handlers("team/bad.rs", BAD, &routes);
        let names: Vec<&str> = found.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(
            names,
            ["invite", "routed_one"],
            "the helper is no handler (another module's `helper` is)"
        );
        assert_eq!(
            calls(&found[0].body),
            ["teams.caller", "teams.invite", "store.enqueue_mail"]
        );
        let faults = faults(&found[0]);
        assert_eq!(faults.len(), 4, "{faults:#?}");
        assert!(faults[0].contains("2 changes"), "{faults:#?}");
        assert_eq!(writes(&found[1].body), ["teams.rename", "teams.transfer"]);
    }

    #[test]
    fn one_change_after_reads_passes() {
        let good = "#[utoipa::path(get)]\npub async fn t(State(state): State<AppState>) {\n\
            let now = state.clock.now();\n    state.teams.view(a).await?;\n    \
            state.teams.transfer(&member(&auth), None, to).await?;\n}\n";
        let found = handlers("team/good.rs", good, &BTreeSet::new());
        assert_eq!(found.len(), 1);
        assert!(faults(&found[0]).is_empty(), "{:?}", faults(&found[0]));
    }
}
