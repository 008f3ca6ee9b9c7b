//! The test DNS server ([`closewise_testkit::dns::TxtServer`]) as a process, for suites that are
//! not Rust (the e2e suite gives its address to the API as `DNS_RESOLVER`). It listens on a free
//! UDP port of 127.0.0.1, prints `READY 127.0.0.1:PORT`, then takes one command a line on stdin
//! and answers each with `ok` (or `error: …`):
//!
//! - `set NAME VALUE` serves VALUE (the rest of the line) as the one TXT record at NAME;
//! - `unset NAME` removes NAME.
//!
//! It exits when stdin closes (its parent went away).

use std::io::BufRead;
use std::sync::Arc;

use closewise_testkit::dns::TxtServer;

fn command(server: &TxtServer, line: &str) -> Result<(), String> {
    let line = line.trim();
    let (verb, rest) = line.split_once(' ').unwrap_or((line, ""));
    match verb {
        "set" => {
            let (name, value) = rest
                .trim()
                .split_once(' ')
                .ok_or("set needs a name and a value")?;
            let value = value.trim();
            if value.is_empty() {
                return Err("set needs a value".into());
            }
            server.set(name, &[value]);
            Ok(())
        }
        "unset" if !rest.trim().is_empty() => {
            server.set(rest.trim(), &[]);
            Ok(())
        }
        _ => Err(format!(
            "unknown command {line:?} (set NAME VALUE | unset NAME)"
        )),
    }
}

#[tokio::main]
async fn main() {
    let server = Arc::new(TxtServer::start().await);
    println!("READY {}", server.addr);
    let commands = server.clone();
    tokio::task::spawn_blocking(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if line.trim().is_empty() {
                continue;
            }
            match command(&commands, &line) {
                Ok(()) => println!("ok"),
                Err(e) => println!("error: {e}"),
            }
        }
    })
    .await
    .expect("the command loop");
}
