//! The shape of the workspace, checked: the CLI and the core do not depend on the HTTP server, no
//! crate's modules import each other in a cycle, and no Rust source file grows past 500 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// Top-level module → the top-level modules of the same crate it imports (`crate::x`), tests
/// excluded.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        let edges = graph.entry(top.clone()).or_default();
        for (i, _) in code.match_indices("crate::") {
            let name: String = code[i + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != top && name.chars().next().unwrap().is_lowercase() {
                edges.insert(name);
            }
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
