//! Closewise's application core, with no HTTP in it: the store over SQLite or PostgreSQL, and the
//! services the API (`crates/api`) and the operator's CLI (`crates/cli`) both wrap.
//!
//! | module | what |
//! |---|---|
//! | [`app`] | the composition root: every service built once from the settings |
//! | [`store`] | persistence on both databases, rows decoded into the domain's types |
//! | [`accounts`] | sign-up, verification, resend, recovery, password change, re-authentication, deletion |
//! | [`billing`] | Stripe client, fulfilment, checkout confirmation, events, cancel before deletion |
//! | [`mail`] | mail templates, the outbox's composer and the SMTP worker |
//! | [`passkeys`] | WebAuthn passkeys: registration, the list, sign-in and second-factor assertions, challenges in the store |
//! | [`password`] | argon2id hashing on a fixed pool of threads |
//! | [`sessions`] | signing in with the password or the desktop app (`desktop`), refresh, sign-out, devices; the cache of verified access tokens and the revocation listener |
//! | [`sso`] | single sign-on with OpenID Connect: a team's connection, the sign-in through the provider, the first sign-in's membership |
//! | [`mfa`] | a second factor: authenticator apps (TOTP), recovery codes, the `mfa_token` of a sign-in waiting for its code |
//! | [`actor`] | who makes a change: a member, an operator with a reason, the SCIM directory, a job |
//! | [`limits`] | the request budgets a command spends, behind a port the adapter implements |
//! | [`budget`] | the budget of password and code checks the adapter keeps |
//! | [`reauth`] | whether a session entered its password recently enough for a sensitive action |
//! | [`streams`] | event streams: the team's audit and webhook events to its https endpoint, Splunk HEC or Datadog; their outbox worker |
//! | [`teams`] | sales teams: members and roles, invitations, seats, a member's paid access; operators' actions (`teams::admin`) |
//! | [`domains`] | a team's verified company domains: the DNS TXT record, verifying, the daily re-check |
//! | [`operations`] | the database for operators and probes: readiness, migrations, figures, the audit trail, a sweep by hand |
//! | [`seed`] | fixtures for development databases: accounts in every state, a team at scale |
//! | [`sweep`] | deletes expired rows (device and authorization codes, old links, ended sessions' tokens) |
//! | [`usage`] | entitlements, the desktop app's calls, the Free Trial's meter, operators' grants |
//! | [`clock`] | "now", manual in tests |
//! | [`files`] | files the server keeps for itself (signing and encryption keys), owner-only |
//!
//! Each service is a struct holding its explicit dependencies, with its own error enum whose
//! `code()` is the machine code an adapter shows.

pub mod accounts;
pub mod actor;
pub mod app;
pub mod billing;
pub mod budget;
pub mod clock;
pub mod files;
pub mod limits;
pub mod mail;
pub mod mfa;
pub mod operations;
pub mod passkeys;
pub mod password;
pub mod reauth;
pub mod scim;
pub mod seed;
pub mod sessions;
pub mod setup_links;
pub mod sso;
pub mod store;
pub mod streams;
pub mod sweep;
pub mod teams;
pub mod usage;
pub mod verified_domains;
