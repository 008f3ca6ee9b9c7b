//! One composition root: the API's state and the CLI build every service through
//! `closewise_core::app::Services`, and the CLI's commands reach the database through those
//! services only (no store call, no audit row of their own, no service of their own making).

use std::path::{Path, PathBuf};

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/")
        .to_path_buf()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(crates_dir().join(path)).unwrap()
}

/// The lines of `text` containing any of `needles`.
fn lines_with(name: &str, text: &str, needles: &[&str]) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| needles.iter().any(|n| l.contains(n)))
        .map(|(i, l)| format!("{name}:{}: {}", i + 1, l.trim()))
        .collect()
}

#[test]
fn the_api_and_the_cli_build_their_services_through_the_root() {
    for adapter in ["api/src/state.rs", "cli/src/lib.rs"] {
        let text = read(adapter);
        assert!(text.contains("Services::new("), "{adapter} builds the root");
        let by_hand = lines_with(
            adapter,
            &text,
            &[
                "Accounts::new(",
                "Billing::new(",
                "Usage::new(",
                "Teams::new(",
                "Sessions::new(",
                "Mfa::new(",
                "Sweeper::new(",
                "Composer::new(",
            ],
        );
        assert!(
            by_hand.is_empty(),
            "built by hand, not by the root: {by_hand:#?}"
        );
    }
}

#[test]
fn the_clis_commands_call_services_not_the_store() {
    let src = crates_dir().join("cli").join("src");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".rs") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        found.extend(lines_with(
            &name,
            &text,
            &[
                "ctx.store",
                "NewAudit",
                "record_audit",
                "Composer::new",
                "Hasher::new",
                "::new(ctx.",
                "ctx.actor()",
            ],
        ));
    }
    assert!(
        found.is_empty(),
        "call one core service instead: {found:#?}"
    );
}
