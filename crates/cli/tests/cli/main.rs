//! `closewise` run as a process against temporary SQLite and PostgreSQL databases, seeded from
//! fixtures, with stripe-mock in-process for the Stripe side.

mod helpers;

mod accounts;
mod billing;
mod mail;
mod mfa;
mod safety;
mod seed_and_stats;
mod sweep;
mod team_domains;
mod team_setup_links;
mod team_streams;
mod teams;
mod usage;
