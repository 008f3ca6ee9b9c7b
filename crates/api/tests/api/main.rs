//! The API's integration suite: every test runs on SQLite and on PostgreSQL.

mod helpers;
#[allow(unused_imports)]
pub(crate) use closewise_testkit::{both, each_backend};

mod account;
mod bad_input;
mod billing;
mod limits;
mod ops;
mod plans;
mod recover;
mod refresh;
mod signin;
mod signup;
mod verify;
mod web;
