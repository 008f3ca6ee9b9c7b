//! Sales teams: who may do what in a team, seat arithmetic, invitations, domain join, and what a
//! member's plan is. Pure rules; the store and the services apply them.
//!
//! - A team has one owner, admins and members; a user belongs to at most one team.
//! - The owner pays: the card on file is theirs, so every billing action that charges it or opens
//!   the team's billing (buying seats, previewing and changing them, the billing portal) is the
//!   owner's ([`Action::BILLING`]). The owner also renames, transfers ownership and deletes the
//!   team; admins invite and remove members and approve join requests; members use the product.
//! - Seats are the quantity of the team's subscription. Members and pending invites both hold a
//!   seat, so seats can never go below their sum, and an invite needs a free seat.

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

use crate::subscription::SubscriptionStatus;

/// A member's role in their team.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, PartialOrd, Ord, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Member,
    Admin,
    Owner,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Member, Role::Admin, Role::Owner];

    pub fn as_str(&self) -> &'static str {
        match self {
            Role::Member => "member",
            Role::Admin => "admin",
            Role::Owner => "owner",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// The roles an invitation may give: never the owner's (ownership is transferred, not invited).
    pub fn invitable(&self) -> bool {
        matches!(self, Role::Member | Role::Admin)
    }
}

/// Everything someone can try to do to a team.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Action {
    /// See the team, its members and seats (members get the read-only view).
    View,
    Rename,
    /// The team's billing portal: its card, invoices, cancelling.
    ManageBilling,
    /// Buying seats: a checkout of the team's subscription, paid with the owner's card.
    StartCheckout,
    /// Reading back a checkout already paid (the success page; the webhook records the same).
    ConfirmCheckout,
    /// What a seat change would cost: the team's invoice preview at Stripe.
    PreviewSeats,
    TransferOwnership,
    Delete,
    Invite,
    ResendInvite,
    RevokeInvite,
    ChangeSeats,
    /// Approve or refuse a domain-join request.
    ApproveJoin,
    /// Turn domain join on or off.
    ConfigureDomainJoin,
    /// Require (or stop requiring) a second factor of every member.
    RequireMfa,
    /// Read or change the team's policy (consent notice, apps, hints, retention).
    SetPolicy,
    /// Add, verify and remove the team's company domains (`domains`); seeing them too.
    ManageDomains,
    /// Create, list and revoke the team's SCIM tokens.
    ManageScim,
    /// Configure, test and remove the team's single sign-on.
    ConfigureSso,
    /// Add, test, rotate and remove the team's event streams; see their deliveries.
    ManageStreams,
    /// See the adoption report: each member's calls, minutes, activity and idle seats.
    ViewAdoption,
    /// See and export the team's activity, its audit trail.
    ViewActivity,
    /// See the team's invoices and their PDFs (the finance people: owner and admins).
    ViewInvoices,
    /// See which members have a second factor (the owner and admins, who enforce it).
    ViewSecondFactors,
    /// Change the company name, address and tax IDs on the team's invoices (the owner's, like
    /// everything else Stripe bills).
    EditBillingDetails,
    Leave,
}

impl Action {
    pub const ALL: [Action; 26] = [
        Action::View,
        Action::Rename,
        Action::ManageBilling,
        Action::StartCheckout,
        Action::ConfirmCheckout,
        Action::PreviewSeats,
        Action::TransferOwnership,
        Action::Delete,
        Action::Invite,
        Action::ResendInvite,
        Action::RevokeInvite,
        Action::ChangeSeats,
        Action::ApproveJoin,
        Action::ConfigureDomainJoin,
        Action::RequireMfa,
        Action::SetPolicy,
        Action::ManageDomains,
        Action::ManageScim,
        Action::ConfigureSso,
        Action::ManageStreams,
        Action::ViewAdoption,
        Action::ViewActivity,
        Action::ViewInvoices,
        Action::ViewSecondFactors,
        Action::EditBillingDetails,
        Action::Leave,
    ];

    /// What touches the team's billing. All but reading back a paid checkout are the owner's:
    /// the card on file is the owner's, and a seat preview is only the first step of a change.
    pub const BILLING: [Action; 5] = [
        Action::StartCheckout,
        Action::ConfirmCheckout,
        Action::PreviewSeats,
        Action::ChangeSeats,
        Action::ManageBilling,
    ];
}

/// Whether `role` may do `action` to their own team. Another team's anything is not found, never
/// "forbidden": that is the service's rule, not a role's.
pub fn may(role: Role, action: Action) -> bool {
    use Action::*;
    match action {
        // A paid checkout changes nothing anyone chose: whoever lands on the success page may
        // record it.
        View | ConfirmCheckout => true,
        // The owner cannot leave: they transfer ownership or delete the team.
        Leave => role != Role::Owner,
        Invite | ResendInvite | RevokeInvite | ApproveJoin | SetPolicy | ViewAdoption
        | ViewActivity | ViewInvoices | ViewSecondFactors => role >= Role::Admin,
        StartCheckout | PreviewSeats | ChangeSeats | ManageBilling | EditBillingDetails => {
            role == Role::Owner
        }
        Rename | TransferOwnership | Delete | ConfigureDomainJoin | RequireMfa | ManageDomains
        | ManageScim | ConfigureSso | ManageStreams => role == Role::Owner,
    }
}

/// Whether `actor` may remove `target` from the team: the owner removes anyone but themself;
/// admins remove members only; nobody removes the owner (ownership is transferred first).
pub fn may_remove(actor: Role, target: Role) -> bool {
    match actor {
        Role::Owner => target != Role::Owner,
        Role::Admin => target == Role::Member,
        Role::Member => false,
    }
}

/// Whether `actor` may give someone `new_role`: only the owner changes roles, and only between
/// member and admin (ownership moves by transfer).
pub fn may_set_role(actor: Role, target: Role, new_role: Role) -> bool {
    actor == Role::Owner && target != Role::Owner && new_role.invitable()
}

/// Whether `actor` may invite someone as `role`: those who invite give the member role; only the
/// owner, who alone changes roles, invites admins (an admin inviting an admin would make one
/// without the owner).
pub fn may_invite_as(actor: Role, role: Role) -> bool {
    may(actor, Action::Invite) && (role == Role::Member || may_set_role(actor, Role::Member, role))
}

/// The most seats a team can buy here; larger teams talk to us.
pub const MAX_SEATS: u32 = 10_000;

/// The seats a team holds: its subscription's quantity, the members and the pending invites.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Seats {
    pub total: u32,
    pub members: u32,
    pub pending_invites: u32,
}

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SeatError {
    /// Every seat is held by a member or a pending invite.
    #[error("All {total} seats are taken. Add seats to invite more people.")]
    AllTaken { total: u32 },
    #[error("A team has between 1 and {max} seats.", max = MAX_SEATS)]
    OutOfRange,
    /// Removing seats would leave someone without one.
    #[error("{used} seats are in use ({members} members and {pending} pending invites). Remove members or revoke invites first.")]
    BelowUsed {
        used: u32,
        members: u32,
        pending: u32,
    },
    /// Fewer seats than members (Stripe lowered them): `over_seats`.
    #[error("The team has fewer seats than members ({missing} missing). Add seats or remove members before anyone else joins.")]
    OverSeats { missing: u32 },
}

impl SeatError {
    pub fn code(&self) -> &'static str {
        match self {
            SeatError::AllTaken { .. } => "seats_taken",
            SeatError::OutOfRange => "invalid_seats",
            SeatError::BelowUsed { .. } => "seats_in_use",
            SeatError::OverSeats { .. } => "team_over_seats",
        }
    }
}

impl Seats {
    pub fn used(&self) -> u32 {
        self.members.saturating_add(self.pending_invites)
    }

    pub fn free(&self) -> u32 {
        self.total.saturating_sub(self.used())
    }

    /// An invite (or an approved join request) needs a free seat.
    pub fn check_invite(&self) -> Result<(), SeatError> {
        if let Some(missing) = self.over_seats() {
            return Err(SeatError::OverSeats { missing });
        }
        if self.free() == 0 {
            return Err(SeatError::AllTaken { total: self.total });
        }
        Ok(())
    }

    /// The seats may become `new_total` when it is within range and holds everyone already seated.
    pub fn check_resize(&self, new_total: u32) -> Result<(), SeatError> {
        if new_total == 0 || new_total > MAX_SEATS {
            return Err(SeatError::OutOfRange);
        }
        if new_total < self.used() {
            return Err(SeatError::BelowUsed {
                used: self.used(),
                members: self.members,
                pending: self.pending_invites,
            });
        }
        Ok(())
    }
}

/// Whether a team member with a seat gets the paid plan: while the team's subscription counts as
/// subscribed (the same rule as a personal subscription).
pub fn member_is_paid(team_subscription: Option<SubscriptionStatus>) -> bool {
    team_subscription.is_some_and(|s| s.counts_as_subscribed())
}

/// An invitation link lives 7 days and is single use.
pub const INVITE_TTL: Duration = Duration::days(7);

pub fn invite_expires_at(created_at: OffsetDateTime) -> OffsetDateTime {
    created_at + INVITE_TTL
}

/// The longest team name.
pub const TEAM_NAME_MAX_CHARS: usize = 80;

/// A team's name: trimmed, 1 to 80 characters, no control characters.
pub fn team_name(input: &str) -> Result<String, &'static str> {
    let name = input.trim();
    if name.is_empty() {
        return Err("Please enter a team name.");
    }
    if name.chars().count() > TEAM_NAME_MAX_CHARS || name.chars().any(char::is_control) {
        return Err("A team name is at most 80 characters, without control characters.");
    }
    Ok(name.to_string())
}

mod domain_join;
pub mod domains;
pub use domain_join::{
    domain_join_offer, is_public_mail_domain, mail_domain, may_enable_domain_join, may_request_join,
};

/// An invitation is for one address: the signed-in user accepting it must have that address.
pub fn invite_matches(invite_email: &str, user_email: &str) -> bool {
    invite_email.trim().eq_ignore_ascii_case(user_email.trim())
}

#[cfg(test)]
mod tests;
