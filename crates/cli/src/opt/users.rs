//! `closewise users ...`: the list's filters and the second-factor commands' options.

use clap::{Args, Subcommand};

use super::{parse_date, Output, UserDestructive, UserShow};

#[derive(Args, Debug)]
pub struct UsersList {
    /// Only accounts that have not confirmed their address.
    #[arg(long)]
    pub unverified: bool,
    /// Only accounts on the paid plan.
    #[arg(long)]
    pub paid: bool,
    /// Only accounts created on or after this day (YYYY-MM-DD, UTC).
    ///
    /// Example: --since 2026-11-01
    #[arg(long, value_parser = parse_date)]
    pub since: Option<time::Date>,
    /// At most this many.
    #[arg(long, default_value_t = 100)]
    pub limit: i64,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Subcommand, Debug)]
pub enum UsersMfaCommand {
    /// The account's second factor: authenticator app (since when), unused recovery codes,
    /// passkeys, and whether a team requires one.
    ///
    /// Example: closewise users mfa show ana@example.com
    Show(UserShow),
    /// Removes the authenticator app, the recovery codes and the passkeys of a customer who lost
    /// them (`--keep-passkeys` keeps the passkeys, and says so), ends every session and mails
    /// them; they sign in with the password alone and set a new factor up.
    ///
    /// Example: closewise users mfa reset ana@example.com --reason "ticket #77: lost phone and codes, identity checked" --yes
    Reset(MfaReset),
}

#[derive(Args, Debug)]
pub struct MfaReset {
    #[command(flatten)]
    pub user: UserDestructive,
    /// Keep the account's passkeys: only the authenticator app and its recovery codes go.
    #[arg(long)]
    pub keep_passkeys: bool,
}
