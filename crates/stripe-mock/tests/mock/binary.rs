//! The `stripe-mock` binary: flags, the log line naming its address, the state file.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::helpers::KEY;

#[tokio::test]
async fn the_binary_serves_on_the_given_port_logs_it_and_writes_the_state_file() {
    let dir = std::env::temp_dir().join(format!("stripe-mock-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("state.json");
    let _ = std::fs::remove_file(&state);
    let mut child = Command::new(env!("CARGO_BIN_EXE_stripe-mock"))
        .args(["--port", "0", "--secret-key", "sk_test_bin", "--state-file"])
        .arg(&state)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let line = tokio::task::spawn_blocking(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .find(|l| l.contains("listening on"))
    })
    .await
    .unwrap()
    .expect("a 'listening on' log line");
    let start = line.find("http://").unwrap();
    let base: String = line[start..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();

    let http = reqwest::Client::new();
    let health = http
        .get(format!("{base}/_mock/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    let wrong = http
        .post(format!("{base}/v1/customers"))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(
        wrong.status(),
        401,
        "the --secret-key flag replaced the default key"
    );
    let made = http
        .post(format!("{base}/v1/customers"))
        .bearer_auth("sk_test_bin")
        .form(&[("email", "bin@example.com")])
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), 200);
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("bin@example.com"));

    child.kill().unwrap();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
