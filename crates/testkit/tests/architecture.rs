//! The shape of the workspace, checked: the CLI and the core do not depend on the HTTP server, no
//! crate's modules import each other in a cycle (at any depth, `crate::`, `super::` and `self::`
//! imports followed), no Rust source file grows past 500 lines,
//! the API builds its HTTP errors in its error module only, the adapters are parse -> one
//! call -> render (`adapters`), and tests run on both databases through `both!` only (`both`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[path = "architecture/adapters.rs"]
mod adapters;
#[path = "architecture/both.rs"]
mod both;

const MAX_LINES: usize = 500;

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/")
        .to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if name != "target" && name != "node_modules" {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The `[dependencies]` table of a crate's manifest (dev-dependencies excluded).
fn dependencies(krate: &str) -> Vec<String> {
    let manifest = std::fs::read_to_string(crates_dir().join(krate).join("Cargo.toml")).unwrap();
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
        } else if in_deps && !line.is_empty() && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once('=') {
                deps.push(name.trim().trim_end_matches(".workspace").to_owned());
            }
        }
    }
    deps
}

#[test]
fn the_cli_and_the_core_do_not_depend_on_the_http_server() {
    for krate in ["cli", "core", "domain"] {
        let deps = dependencies(krate);
        assert!(!deps.is_empty(), "{krate} has dependencies to read");
        for http in ["closewise-api", "axum", "axum-extra", "tower-http"] {
            assert!(
                !deps.iter().any(|d| d == http),
                "crates/{krate} depends on {http}: {deps:?}"
            );
        }
    }
    assert!(dependencies("cli").iter().any(|d| d == "closewise-core"));
    assert!(dependencies("api").iter().any(|d| d == "closewise-core"));
}

#[test]
fn stripe_is_called_through_the_core_only() {
    let api = dependencies("api");
    assert!(
        !api.iter().any(|d| d.starts_with("async-stripe")),
        "crates/api calls Stripe through core's billing: {api:?}"
    );
    let cli = dependencies("cli");
    assert!(
        !cli.iter().any(|d| d == "reqwest"),
        "crates/cli calls Stripe through core's client, and nothing else over HTTP: {cli:?}"
    );
}

#[test]
fn the_api_leaves_the_database_mail_and_hashing_to_the_core() {
    let api = dependencies("api");
    for dep in ["sqlx", "lettre", "argon2"] {
        assert!(
            !api.iter().any(|d| d == dep),
            "crates/api uses {dep} only through core's services: {api:?}"
        );
    }
    let mut sources = Vec::new();
    rust_files(&crates_dir().join("api").join("src"), &mut sources);
    for file in sources {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            !text.contains("sqlx::"),
            "{} uses sqlx: the store is core's",
            file.display()
        );
    }
}

/// The lines of crates/api/src, outside the files `allowed` lets through, that contain any of
/// `needles`: `file:line: text`.
fn api_lines_containing(allowed: impl Fn(&Path) -> bool, needles: &[&str]) -> Vec<String> {
    let src = crates_dir().join("api").join("src");
    let mut sources = Vec::new();
    rust_files(&src, &mut sources);
    let mut found = Vec::new();
    for file in sources {
        if allowed(file.strip_prefix(&src).unwrap()) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if needles.iter().any(|b| line.contains(b)) {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

/// Each core error maps to HTTP once, in `crates/api/src/error.rs` (and its `error/` folder): a
/// handler returns the core's error (`?`) or a named constructor, and never builds a status, code
/// and message itself.
#[test]
fn http_errors_are_built_in_the_error_module_only() {
    let builders = [
        "ApiError::new(",
        "ApiError::bad_request(",
        "ApiError::unprocessable(",
        "ApiError::too_many(",
        "ApiError::unavailable_for(",
        "ApiError::Client {",
        "ApiError::Unavailable(",
        "ApiError::Internal(",
    ];
    let found = api_lines_containing(
        |f| f.starts_with("error.rs") || f.starts_with("error"),
        &builders,
    );
    assert!(
        found.is_empty(),
        "map the core's error in crates/api/src/error.rs, or name the refusal there: {found:#?}"
    );
}

/// The API calls Stripe only through core's billing flows: no handler reaches the Stripe client
/// (`Billing::stripe()`, `billing::stripe`), checks a webhook signature, or builds a per-request
/// service; the services are built once, in `state.rs` (from the client `lib.rs` connects at
/// start).
#[test]
fn handlers_reach_stripe_and_build_services_through_the_core_only() {
    let forbidden = [
        ".stripe()",
        "billing::stripe",
        "signature::",
        "StripeClient",
        "DesktopAuth::new",
        "Billing::new",
    ];
    let found = api_lines_containing(
        |f| f == Path::new("state.rs") || f == Path::new("lib.rs") || f.starts_with("error"),
        &forbidden,
    );
    assert!(
        found.is_empty(),
        "call core's billing or sessions service (built once in state.rs): {found:#?}"
    );
}

#[test]
fn no_rust_source_file_is_over_500_lines() {
    let mut files = Vec::new();
    rust_files(&crates_dir(), &mut files);
    assert!(files.len() > 50, "the sources are found");
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > MAX_LINES).then(|| format!("{} ({n} lines)", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "split these by flow or resource: {long:#?}"
    );
}

/// A source file's module path: `auth/grants.rs` is `auth::grants`, `auth/mod.rs` is `auth`,
/// `lib.rs` and `main.rs` the crate's root. `None` for a test module kept in its own file.
fn module_path(src: &Path, file: &Path) -> Option<Vec<String>> {
    let rel = file.strip_prefix(src).unwrap();
    let mut path: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = path.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem.ends_with("_tests") {
        return None;
    }
    if !(path.is_empty() && (stem == "lib" || stem == "main")) && stem != "mod" {
        path.push(stem.to_owned());
    }
    Some(path)
}

/// The paths named right after an import prefix: `a::b` gives `[a, b]`, `{a, b::c}` gives
/// `[a]` and `[b, c]` (groups nest).
fn paths_after(code: &str) -> Vec<Vec<String>> {
    fn ident(s: &str) -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    }
    fn group(s: &str) -> Vec<&str> {
        let (mut depth, mut from, mut items) = (0, 1, Vec::new());
        for (i, c) in s.char_indices() {
            match c {
                '{' => depth += 1,
                '}' | ',' if depth == 1 => {
                    items.push(&s[from..i]);
                    from = i + 1;
                    if c == '}' {
                        break;
                    }
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        items
    }
    let code = code.trim_start();
    if code.starts_with('{') {
        return group(code).into_iter().flat_map(paths_after).collect();
    }
    let first = ident(code);
    if first.is_empty() {
        return vec![vec![]];
    }
    let rest = &code[first.len()..];
    match rest.strip_prefix("::") {
        Some(rest) => paths_after(rest)
            .into_iter()
            .map(|tail| std::iter::once(first.clone()).chain(tail).collect())
            .collect(),
        None => vec![vec![first]],
    }
}

/// Module → the modules of the same crate it imports (`crate::…`, `super::…`, `self::…`), tests
/// excluded. An import is an edge between the two sibling modules that hold the importer and the
/// imported (`auth::grants` using `crate::state` is `auth` → `state`; using `super::session` it is
/// `auth::grants` → `auth::session`); a module using its own parent or child is no edge.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().filter_map(|f| module_path(src, f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(here) = module_path(src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        let mut targets = Vec::new();
        for (i, _) in code.match_indices("crate::") {
            if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            targets.extend(paths_after(&code[i + 7..]));
        }
        for prefix in ["super::", "self::"] {
            for (i, _) in code.match_indices(prefix) {
                if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let mut base = here.clone();
                let mut rest = &code[i..];
                if prefix == "self::" {
                    rest = &rest[6..];
                } else {
                    while let Some(r) = rest.strip_prefix("super::") {
                        base.pop();
                        rest = r;
                    }
                }
                for tail in paths_after(rest) {
                    targets.push(base.iter().cloned().chain(tail).collect());
                }
            }
        }
        for target in targets {
            // The module the path lands in: its longest prefix that is a module.
            let Some(there) = (0..=target.len())
                .rev()
                .map(|n| target[..n].to_vec())
                .find(|p| modules.contains(p))
            else {
                continue;
            };
            let shared = here.iter().zip(&there).take_while(|(a, b)| a == b).count();
            if shared == here.len() || shared == there.len() {
                continue;
            }
            graph
                .entry(here[..=shared].join("::"))
                .or_default()
                .insert(there[..=shared].join("::"));
        }
    }
    graph
}

fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_crate_has_an_import_cycle_between_its_modules() {
    let mut checked = 0;
    for entry in std::fs::read_dir(crates_dir()).unwrap().flatten() {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let graph = module_graph(&src);
        if let Some(cycle) = find_cycle(&graph) {
            panic!(
                "{}: modules import each other in a cycle: {}",
                entry.path().display(),
                cycle.join(" -> ")
            );
        }
        checked += 1;
    }
    assert!(checked >= 5, "every crate is checked");
}

#[test]
fn a_cycle_is_found_when_there_is_one() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("state", vec!["auth"]),
        ("auth", vec!["extract"]),
        ("extract", vec!["state"]),
        ("ops", vec!["state"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
    .collect();
    let cycle = find_cycle(&graph).expect("a cycle");
    assert_eq!(cycle.first(), cycle.last());
    assert!(cycle.contains(&"auth".to_owned()));
    let mut acyclic = graph.clone();
    acyclic.get_mut("extract").unwrap().clear();
    assert_eq!(find_cycle(&acyclic), None);
}

#[test]
fn a_cycle_through_super_imports_is_found() {
    let src = std::env::temp_dir().join(format!("architecture-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(src.join("auth")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(src.join(name), text).unwrap();
    write("lib.rs", "mod auth;\nmod state;\n");
    write("state.rs", "pub struct AppState;\n");
    write(
        "auth/mod.rs",
        "mod grants;\nmod token;\npub use grants::X;\n",
    );
    write(
        "auth/grants.rs",
        "use super::token::max_age;\nuse crate::state::AppState;\n",
    );
    write(
        "auth/token.rs",
        "use super::{common, grants};\npub fn max_age() {}\n",
    );
    write("auth/common.rs", "use super::super::state::AppState;\n");
    let graph = module_graph(&src);
    assert_eq!(
        graph["auth::token"],
        ["auth::common", "auth::grants"]
            .map(str::to_owned)
            .into_iter()
            .collect()
    );
    assert!(graph["auth"].contains("state"));
    let cycle = find_cycle(&graph).expect("grants <-> token");
    assert!(cycle.contains(&"auth::grants".to_owned()), "{cycle:?}");
    write("auth/token.rs", "use super::common;\npub fn max_age() {}\n");
    assert_eq!(find_cycle(&module_graph(&src)), None);
    std::fs::remove_dir_all(&src).unwrap();
}

/// An API handler makes one change through one core call and reaches neither the store nor the
/// audit trail nor the outbox itself (`adapters`).
#[test]
fn a_handler_makes_one_change_through_one_core_call() {
    let src = crates_dir().join("api").join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let handlers = adapters::api_handlers(&src, &files);
    assert!(
        handlers.len() > 80,
        "the handlers are found: {}",
        handlers.len()
    );
    let faults: Vec<String> = handlers.iter().flat_map(adapters::faults).collect();
    assert!(
        faults.is_empty(),
        "make the change one command of its core service, taking the actor: {faults:#?}"
    );
}

/// The CLI's team commands reach neither the store nor the audit trail themselves.
#[test]
fn the_cli_s_team_commands_go_through_the_teams_service() {
    let cli = crates_dir().join("cli").join("src");
    for file in ["teams.rs", "team_changes.rs"] {
        let text = std::fs::read_to_string(cli.join(file)).unwrap();
        let flat: String = text.split_whitespace().collect();
        let reaches: Vec<&str> = flat
            .match_indices(".store.")
            .filter(|(i, _)| !flat[i + ".store.".len()..].starts_with("clone()"))
            .map(|(i, _)| {
                flat.get(i.saturating_sub(30)..(i + 40).min(flat.len()))
                    .unwrap_or("")
            })
            .collect();
        assert!(reaches.is_empty(), "{file} calls the store: {reaches:#?}");
        for f in ["record_audit", "NewAudit"] {
            assert!(!text.contains(f), "{file} writes an audit row itself ({f})");
        }
    }
}
