//! The arguments of `closewise db seed-team`.

use clap::Args;

use super::Confirm;

#[derive(Args, Debug)]
pub struct DbSeedTeam {
    /// Members, the owner included. Addresses: PREFIX-owner@DOMAIN, PREFIX-m1@DOMAIN, ...
    ///
    /// Example: --members 1000
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub members: u32,
    /// Calls spread over the members and the year before now.
    #[arg(long, default_value_t = 0)]
    pub calls: u32,
    /// Audit rows about the team, spread over the year.
    #[arg(long, default_value_t = 0)]
    pub audit: u32,
    /// Pending invites (PREFIX-i1@DOMAIN, ...).
    #[arg(long, default_value_t = 0)]
    pub invites: u32,
    /// Starts every address; unique per team.
    #[arg(long)]
    pub prefix: String,
    #[arg(long, default_value = "bench.example.com")]
    pub domain: String,
    /// Every member's password (the sign-up rules apply).
    #[arg(long, env = "SEED_PASSWORD")]
    pub password: String,
    /// Print {team_id, owner_email, member_email} as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub confirm: Confirm,
}
