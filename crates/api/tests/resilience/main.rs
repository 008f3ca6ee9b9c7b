//! The resilience suite: the API under concurrency, faults and attack. Each test is bounded in
//! time (`support::bounded`); where it makes sense it runs on SQLite and on PostgreSQL (`both!`).
//!
//! Run it alone with `cargo test -p closewise-api --test resilience`.

#[path = "../api/helpers.rs"]
#[allow(dead_code)]
mod helpers;

mod support;
#[allow(unused_imports)]
pub(crate) use closewise_testkit::both;

mod attack;
mod concurrency;
mod db_outage;
mod enumeration;
mod killed;
mod smtp;
mod streams_load;
mod webhooks_down;
