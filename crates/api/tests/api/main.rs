//! The API's integration suite: every test runs on SQLite and on PostgreSQL.

mod helpers;
#[allow(unused_imports)]
pub(crate) use closewise_testkit::both;

mod account;
mod bad_input;
mod billing;
mod calls;
mod client_ip;
mod contract;
mod desktop_signin;
mod device_names;
mod device_signin;
mod devices;
mod downloads;
mod entitlements;
mod entitlements_cache;
mod limits;
mod lockout;
mod mfa;
mod mfa_budget;
mod mfa_signin;
mod mfa_team;
mod ops;
mod paid_calls;
mod passkeys;
mod plans;
mod prehijack;
mod read_cache;
mod reauth;
mod recover;
mod refresh;
mod replicas;
mod revocation;
mod sessions;
mod signin;
mod signup;
mod sso;
mod step_up_settings;
mod sweep;
mod takeover;
mod team;
mod team_billing;
mod team_policy;
mod verify;
mod web;
