//! One way to run a test on both databases: `closewise_testkit::both!`. A file elsewhere that
//! defines a macro making tests (or forwarding to `both!`), or a pair of tests named for the two
//! kinds (`x_sqlite` and `x_postgres`), is a second way: copies drift apart, and a test added to
//! one half of a pair runs on one database only.

use super::{crates_dir, rust_files};

/// What makes `text` (the file at `path`) a second way, each fault naming the file and line.
pub fn faults(path: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut faults = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(name) = line.trim_start().strip_prefix("macro_rules!") {
            let body = block_from(&lines, i);
            let makes_tests = body.contains("#[tokio::test") || body.contains("#[test]");
            if makes_tests || body.contains("both!") {
                faults.push(format!(
                    "{path}:{}: macro {} runs tests itself: use closewise_testkit::both!",
                    i + 1,
                    name.trim().trim_end_matches('{').trim()
                ));
            }
        }
    }
    let tests = test_functions(&lines);
    for (line, name) in &tests {
        for (this, other) in [("sqlite", "postgres"), ("lite", "pg")] {
            let Some(at) = name.find(this) else { continue };
            let twin = format!("{}{other}{}", &name[..at], &name[at + this.len()..]);
            if tests.iter().any(|(_, n)| *n == twin) {
                faults.push(format!(
                    "{path}:{line}: {name} and {twin} are one test written twice: use \
                     closewise_testkit::both!"
                ));
            }
        }
    }
    faults
}

/// The text from line `start` to the line that closes the brace it opens.
fn block_from(lines: &[&str], start: usize) -> String {
    let mut depth = 0i32;
    let mut opened = false;
    let mut out = String::new();
    for line in &lines[start..] {
        out.push_str(line);
        out.push('\n');
        for c in line.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        if opened && depth <= 0 {
            break;
        }
    }
    out
}

/// The test functions (`#[test]` or `#[tokio::test..]` among the attributes above), with their
/// line numbers.
fn test_functions(lines: &[&str]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let signature = trimmed
            .strip_prefix("pub ")
            .unwrap_or(trimmed)
            .strip_prefix("async ")
            .unwrap_or(trimmed.strip_prefix("pub ").unwrap_or(trimmed));
        let Some(rest) = signature.strip_prefix("fn ") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let is_test = lines[..i]
            .iter()
            .rev()
            .map(|l| l.trim_start())
            .take_while(|l| l.starts_with("#[") || l.starts_with("///"))
            .any(|l| l.starts_with("#[test]") || l.starts_with("#[tokio::test"));
        if is_test {
            out.push((i + 1, name));
        }
    }
    out
}

#[test]
fn every_test_on_both_databases_goes_through_the_one_macro() {
    let crates = crates_dir();
    let mut files = Vec::new();
    rust_files(&crates, &mut files);
    // The macro's home, and this check's own examples.
    let exempt = [
        crates.join("testkit/src/backend.rs"),
        crates.join("testkit/tests/architecture/both.rs"),
    ];
    let mut found = Vec::new();
    let mut read = 0;
    for path in files.iter().filter(|p| !exempt.contains(p)) {
        let text = std::fs::read_to_string(path).unwrap();
        let shown = path.strip_prefix(&crates).unwrap().display().to_string();
        found.extend(faults(&shown, &text));
        read += 1;
    }
    assert!(read > 200, "the workspace's files are read: {read}");
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_test_macro_a_forwarder_and_a_pair_are_each_found() {
    let macro_making_tests =
        "macro_rules! twice {\n    ($n:ident) => {\n        mod sqlite {\n            \
        #[tokio::test]\n            async fn $n() {}\n        }\n    };\n}\n";
    let forwarder = "#[macro_export]\nmacro_rules! each_backend {\n    ($($t:tt)*) => {\n        \
        $crate::both!($($t)*);\n    };\n}\n";
    let pair = "#[tokio::test(flavor = \"multi_thread\")]\nasync fn sends_mail_sqlite() {\n    \
        sends_mail(false).await\n}\n\n/// The same.\n#[tokio::test]\nasync fn sends_mail_postgres() {\n    \
        sends_mail(true).await\n}\n";
    assert_eq!(faults("a.rs", macro_making_tests).len(), 1);
    assert_eq!(faults("b.rs", forwarder).len(), 1);
    let found = faults("c.rs", pair);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("c.rs:2: sends_mail_sqlite and sends_mail_postgres"),
        "{found:?}"
    );
    // What is not a second way: a macro that writes no test, helpers named for a kind, `both!`.
    let fine = "macro_rules! check {\n    ($conn:ty) => {{ let _ = 1; }};\n}\n\
        async fn sqlite_schema() {}\nasync fn postgres_schema() {}\n\
        both!(\n    async fn sends_mail(backend: Backend) {}\n);\n";
    assert_eq!(faults("d.rs", fine), Vec::<String>::new());
}
