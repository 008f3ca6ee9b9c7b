//! Accounts: sign-up, verification, sign-in, sessions, recovery.

pub mod jwt;
pub mod password;
pub mod routes;
pub mod session;
pub mod tokens;
