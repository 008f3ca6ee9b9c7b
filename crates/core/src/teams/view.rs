//! What the teams service answers: the team as its member sees it, its members, invites and
//! seats, an invitation just sent, and what an invitation link shows.

use closewise_domain::teams::{Role, Seats};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatsView {
    pub total: u32,
    pub used: u32,
    pub free: u32,
    /// Seats fewer than members (Stripe lowered them): `over_seats::OverSeats`.
    pub missing: u32,
}

impl From<Seats> for SeatsView {
    fn from(s: Seats) -> Self {
        SeatsView {
            total: s.total,
            used: s.used(),
            free: s.free(),
            missing: s.standing().seats_missing,
        }
    }
}

#[derive(Clone, Debug)]
pub struct MemberView {
    pub user_id: Uuid,
    pub email: String,
    pub role: Role,
    pub joined_at: OffsetDateTime,
    /// Calls started this calendar month (UTC).
    pub calls_this_month: u32,
}

#[derive(Clone, Debug)]
pub struct InviteView {
    pub id: Uuid,
    pub email: String,
    pub role: Role,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub last_sent_at: OffsetDateTime,
    /// Expired invites hold no seat; a resend revives them when a seat is free.
    pub expired: bool,
}

/// The team as its member sees it. `invites` is empty for members (admins' view only).
#[derive(Clone, Debug)]
pub struct TeamView {
    pub id: Uuid,
    pub name: String,
    pub role: Role,
    pub seats: SeatsView,
    pub subscription_status: Option<String>,
    /// Null before the first checkout (no subscription status recorded).
    pub subscription: Option<TeamSubscription>,
    /// The team's subscription counts as subscribed (`teams::member_is_paid`).
    pub paid: bool,
    /// The caller's own personal subscription counts as subscribed while the team is paid.
    pub personal_subscription_overlap: bool,
    pub join_domain: Option<String>,
    /// The owner's view only: the domain they may turn domain join on for
    /// (`teams::domain_join_offer`); `None` for everyone else.
    pub domain_join_offer: Option<String>,
    pub members: Vec<MemberView>,
    pub invites: Vec<InviteView>,
}

/// An invitation just sent or resent: the link's token in clear, for the mail only.
#[derive(Clone, Debug)]
pub struct Invitation {
    pub invite_id: Uuid,
    pub team_id: Uuid,
    pub role: Role,
    pub email: String,
    pub token: String,
    pub expires_at: OffsetDateTime,
}

/// What the invitation link shows before it is accepted.
#[derive(Clone, Debug)]
pub struct InviteLookup {
    pub team_id: Uuid,
    pub team_name: String,
    pub role: Role,
    pub email: String,
}

/// The team's subscription as Stripe last reported it (the teams row's columns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamSubscription {
    pub status: String,
    /// Unix seconds.
    pub current_period_end: Option<i64>,
    pub cancel_at_period_end: bool,
}
