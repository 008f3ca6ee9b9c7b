//! Closewise's domain: the account, plan and billing rules of the product, with no I/O.
//!
//! Everything here is a pure function of its arguments. Raw input from the edge (HTTP bodies, CLI
//! flags, Stripe payloads) is parsed once into the types of this crate (`Email`, `Password`,
//! `PlanType`, `SubscriptionStatus`, ...) and the rules then work on those types only. The clock is
//! always an argument (`now: OffsetDateTime`): the crate never reads it, so every rule about time
//! (token lifetimes, refresh-token rotation, resend intervals) is tested at its exact boundaries.
//!
//! User-facing strings (error messages, plan names) are the product spec's, verbatim,
//! so the API and the web app show the same words.
//!
//! - [`email`], [`password`]: sign-up input; [`signup`]: when a verification link may activate a
//!   sign-up's password (one sign-up) and when the clicker chooses it (sign-ups that disagree).
//! - [`plan`], [`subscription`]: plan types, Stripe subscription statuses and what they mean.
//! - [`tokens`]: e-mail token and session lifetimes, refresh-token rotation, resend throttling.
//! - [`catalogue`], [`checkout`]: what is for sale and who may buy it; [`billing_interval`]: by
//!   the month or the year, and switching between the two; [`billing_details`]: the company name,
//!   address and tax IDs on invoices; [`promotion`]: whether a promotion code may be used now, and
//!   how a discount is described; [`cancellation`]: cancelling at the period's end with a
//!   reason from a short list, and resuming before it.
//! - [`downloads`]: the desktop release the site offers and its disk images' addresses.
//! - [`limits`]: the same-origin rule for redirect URLs.
//! - [`mail_domains`]: the public mail providers (a vendored list) domain join refuses.
//! - [`team_purchase`]: a team's free trial and paying by invoice: who may, and for how long.
//! - [`teams`]: team roles and what each may do, seat arithmetic, invitations, domain join.
//! - [`oauth`]: the desktop app's sign-in: loopback redirect URIs, PKCE, user codes, device polls.
//! - [`network`]: whether two client addresses are on the same network (/24, /64), and whether
//!   an address is a public one the server may connect to.
//! - [`usage`]: the desktop app's calls, the Free Trial's meter and entitlements.
//! - [`sweep`]: which expired rows are deleted and when; the cap on pending device requests.
//! - [`passkeys`]: the WebAuthn relying party (from `APP_BASE_URL`), challenge lifetime, the sign
//!   counter's rule, passkey names.
//! - [`reauth`]: how recently a session must have entered its password for a sensitive action.
//! - [`mfa`]: a second factor: TOTP codes, recovery codes, the `mfa_token`, step-up.
//! - [`sso`]: single sign-on: issuers, the redirect URI, who an ID token may sign in.
//! - [`idle_seats`]: team usage reports' months, idle members, reclaiming seats and its saving.
//! - [`stats`]: what the operator's figures count as paying, live and churned.
//! - [`streams`]: event streams: destinations, the events an audit action raises, the retry
//!   schedule, the Standard Webhooks signature, Splunk HEC and Datadog bodies.
//! - [`setup_links`]: the owner's setup link for IT: its steps, 24 hours, its states, and that
//!   it may take only its steps' actions.
//! - [`policy`]: a team's policy for the desktop app: its shape, default, validation, canonical
//!   JSON and version, the consent text of a region.

pub mod billing_details;
pub mod billing_interval;
pub mod cancellation;
pub mod catalogue;
pub mod checkout;
pub mod downloads;
pub mod dunning;
pub mod email;
pub mod idle_seats;
pub mod limits;
pub mod mail_domains;
pub mod mfa;
pub mod network;
pub mod oauth;
pub mod over_seats;
pub mod passkeys;
pub mod password;
pub mod plan;
pub mod policy;
pub mod promotion;
pub mod reauth;
pub mod scim;
pub mod setup_links;
pub mod signup;
pub mod sso;
pub mod stats;
pub mod streams;
pub mod subscription;
pub mod sweep;
pub mod team_billing;
pub mod team_purchase;
pub mod teams;
pub mod tokens;
pub mod usage;
