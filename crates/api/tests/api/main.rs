//! The API's integration suite: every test runs on SQLite and on PostgreSQL.

mod helpers;

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
