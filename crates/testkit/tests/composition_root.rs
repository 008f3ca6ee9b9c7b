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

/// Every Rust file under `dir`, with its path relative to `crates/`.
fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path
                .strip_prefix(crates_dir())
                .unwrap()
                .display()
                .to_string();
            found.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    found
}

#[test]
fn no_handler_of_the_api_makes_an_audit_row() {
    let mut found = Vec::new();
    for (name, text) in sources(&crates_dir().join("api").join("src")) {
        found.extend(lines_with(
            &name,
            &text,
            &["NewAudit", "record_audit", ".audit("],
        ));
    }
    assert!(
        found.is_empty(),
        "the core command writes the row: {found:#?}"
    );
}

/// Core's commands write their audit row in the change's transaction (`commit_audited!`, a
/// store method taking the row). A row written on its own (`Store::record_audit`) is for what
/// changes nothing else, or whose change cannot share the row's transaction; these are they.
const AUDIT_APART: &[&str] = &[
    // Reading a mail's text changes nothing but the trail.
    "core/src/mail/outbox.rs",
    // The replay's change is the webhook handling's own transactions, between calls to Stripe.
    "core/src/billing/replay.rs",
    // The sweep deletes expired rows of many tables, each on its own.
    "core/src/operations.rs",
    // The job notices a state (over seats) that other changes made.
    "core/src/teams/billing/over_seats.rs",
    // Opening a team checkout is a call to Stripe between our writes.
    "core/src/teams/billing/checkout.rs",
    // Seats paid by invoice: the subscription is made at Stripe, then stored as every Stripe report
    // of it is (`fulfil_team`, the webhooks' path); the row records the purchase after both.
    "core/src/teams/billing/purchase.rs",
    // Coupons, promotion codes and a team's company details live at Stripe: the change is Stripe's,
    // the row is our only write.
    "core/src/billing/coupons.rs",
    "core/src/teams/billing/invoices.rs",
];

#[test]
fn core_writes_an_audit_row_apart_from_its_change_only_where_listed() {
    let mut found = Vec::new();
    for (name, text) in sources(&crates_dir().join("core").join("src")) {
        if name.starts_with("core/src/store/") || AUDIT_APART.contains(&name.as_str()) {
            continue;
        }
        found.extend(lines_with(&name, &text, &[".record_audit("]));
    }
    assert!(
        found.is_empty(),
        "write the row in the change's transaction: {found:#?}"
    );
}
