//! `closewise teams ...`: options.

use clap::{Args, Subcommand};

use super::{Confirm, Output, StripeArgs};

#[derive(Subcommand, Debug)]
pub enum TeamsCommand {
    /// Lists teams, newest first: owner, seats used of total, subscription status.
    ///
    /// Example: closewise teams list --json
    List(TeamsList),
    /// One screen that explains a team: members with their role and calls this month, pending
    /// invites, seats, the subscription and the team's audit trail.
    ///
    /// Example: closewise teams show "Northwind Sales"
    Show(TeamShow),
    /// Removes a member from the team; their seat frees and every session of theirs ends (the
    /// desktop app's included). The owner cannot be removed: transfer the team first.
    ///
    /// Example: closewise teams remove-member "Northwind Sales" rep@northwind.example --reason "ticket #5" --yes
    RemoveMember(TeamMemberChange),
    /// Makes another member the team's owner; the owner becomes an admin.
    ///
    /// Example: closewise teams transfer 0193f1c2-... cy@northwind.example --reason "ana left" --yes
    Transfer(TeamMemberChange),
    /// The team's seats.
    #[command(subcommand)]
    Seats(TeamSeatsCommand),
    /// The team's single sign-on (OpenID Connect).
    #[command(subcommand)]
    Sso(TeamSsoCommand),
    /// The team's company domains, verified by their DNS TXT record.
    #[command(subcommand)]
    Domains(TeamDomainsCommand),
    /// The team's SCIM provisioning: its tokens and the users its identity provider manages.
    #[command(subcommand)]
    Scim(TeamScimCommand),
    /// The team's event streams: where its audit events and webhook events are delivered.
    #[command(subcommand)]
    Streams(TeamStreamsCommand),
    /// The owner's setup links for IT: their steps, state and what was done through them.
    #[command(subcommand, name = "setup-links")]
    SetupLinks(TeamSetupLinksCommand),
}

#[derive(Subcommand, Debug)]
pub enum TeamSetupLinksCommand {
    /// The team's last 20 setup links, newest first: steps, state (open, finished, revoked,
    /// expired), what IT completed, who made it and when it expires (never the link itself).
    ///
    /// Example: closewise teams setup-links list "Northwind Sales" --json
    List(TeamShow),
    /// Revokes one of the team's open setup links: its page and endpoints answer 410 from now on.
    ///
    /// Example: closewise teams setup-links revoke "Northwind Sales" 0193f1c2-... --reason "ticket #11: link shared by mistake" --yes
    Revoke(TeamSetupLinkRevoke),
}

#[derive(Args, Debug)]
pub struct TeamSetupLinkRevoke {
    /// The team's id, or its name (when no other team has it).
    pub team: String,
    /// The link's id (`teams setup-links list` shows it).
    pub id: String,
    #[command(flatten)]
    pub reason: TeamReason,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Subcommand, Debug)]
pub enum TeamStreamsCommand {
    /// The team's event streams, oldest first: kind, URL, status (active, failing, paused),
    /// events waiting, next attempt, subscribed events (never a signing secret or token).
    ///
    /// Example: closewise teams streams list "Northwind Sales" --json
    List(TeamShow),
    /// One stream's last 100 deliveries, newest first: status, events, latency, response code,
    /// error, next retry.
    ///
    /// Example: closewise teams streams deliveries "Northwind Sales" 0193f1c2-... --json
    Deliveries(TeamStreamDeliveries),
}

#[derive(Args, Debug)]
pub struct TeamStreamDeliveries {
    /// The team's id, or its name (when no other team has it).
    pub team: String,
    /// The stream's id (`teams streams list` shows it).
    pub stream: String,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Subcommand, Debug)]
pub enum TeamSsoCommand {
    /// The team's SSO connection: issuer, client id, whether it is required, the redirect URI
    /// and the verified domains (never the client secret).
    ///
    /// Example: closewise teams sso show "Northwind Sales" --json
    Show(TeamShow),
    /// Turns the team's SSO off: its members sign in with passwords again (or reset them).
    ///
    /// Example: closewise teams sso disable "Northwind Sales" --reason "ticket #7: IdP retired" --yes
    Disable(TeamSsoDisable),
}

#[derive(Args, Debug)]
pub struct TeamSsoDisable {
    /// The team's id, or its name (when no other team has it).
    pub team: String,
    #[command(flatten)]
    pub reason: TeamReason,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Subcommand, Debug)]
pub enum TeamScimCommand {
    /// The team's SCIM tokens (never their secret: created, last used, revoked) and how many
    /// users its identity provider manages.
    ///
    /// Example: closewise teams scim show "Northwind Sales"
    Show(TeamShow),
    /// Turns SCIM off for the team: revokes every live SCIM token, so the identity provider's
    /// next request is refused (401). Members and provisioned users stay. The owner can create a
    /// new token on /team afterwards.
    ///
    /// Example: closewise teams scim disable "Northwind Sales" --reason "ticket #9: token leaked" --yes
    Disable(TeamScimDisable),
}

#[derive(Args, Debug)]
pub struct TeamScimDisable {
    /// The team's id, or its name (when no other team has it).
    pub team: String,
    #[command(flatten)]
    pub reason: TeamReason,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Subcommand, Debug)]
pub enum TeamDomainsCommand {
    /// The team's domains: status, the TXT record, when it was verified and last seen.
    ///
    /// Example: closewise teams domains show "Northwind Sales" --json
    Show(TeamShow),
    /// Un-verifies one of the team's verified domains: pending again, domain join at it ends, and
    /// the owner verifies it again only by its record.
    ///
    /// Example: closewise teams domains disable "Northwind Sales" northwind.example --reason "ticket #7: disputed" --yes
    Disable(TeamDomainDisable),
}

#[derive(Args, Debug)]
pub struct TeamDomainDisable {
    /// The team's id, or its name (when no other team has it).
    pub team: String,
    /// The domain, e.g. northwind.example.
    pub domain: String,
    #[command(flatten)]
    pub reason: TeamReason,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Subcommand, Debug)]
pub enum TeamSeatsCommand {
    /// Sets the team's seats, never below its members plus pending invites. A team with a Stripe
    /// subscription changes the subscription's quantity (prorated on the next invoice).
    ///
    /// Example: closewise teams seats set "Northwind Sales" 8 --reason "ticket #6: three more reps" --yes
    Set(TeamSeatsSet),
}

#[derive(Args, Debug)]
pub struct TeamsList {
    /// At most this many.
    #[arg(long, default_value_t = 100)]
    pub limit: i64,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Args, Debug)]
pub struct TeamShow {
    /// The team's id, or its name (when no other team has it).
    pub team: String,
    #[command(flatten)]
    pub output: Output,
}

/// Why a team changes, for the audit trail (required).
#[derive(Args, Debug, Clone)]
pub struct TeamReason {
    /// Why, for the audit trail (required).
    ///
    /// Example: --reason "ticket #5: the rep left the company"
    #[arg(long)]
    pub reason: String,
}

#[derive(Args, Debug)]
pub struct TeamMemberChange {
    /// The team's id, or its name (when no other team has it).
    pub team: String,
    /// The member's e-mail address or user id.
    pub user: String,
    #[command(flatten)]
    pub reason: TeamReason,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Args, Debug)]
pub struct TeamSeatsSet {
    /// The team's id, or its name (when no other team has it).
    pub team: String,
    /// The seats (1 to 10000).
    pub seats: u32,
    #[command(flatten)]
    pub reason: TeamReason,
    #[command(flatten)]
    pub confirm: Confirm,
    #[command(flatten)]
    pub stripe: StripeArgs,
}
