//! What the teams service answers: the team as its member sees it, its members, invites and
//! seats, an invitation just sent, and what an invitation link shows.

use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::{payment_failed, seat_range, seats_form, SeatsForm};
use closewise_domain::teams::{may, may_invite_as, may_remove, may_set_role, Action, Role, Seats};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatsView {
    pub total: u32,
    pub used: u32,
    pub free: u32,
    /// Seats fewer than members (Stripe lowered them): `over_seats::OverSeats`.
    pub missing: u32,
    /// The seats a checkout or a seat change may ask for (`team_billing::seat_range`).
    pub min: u32,
    pub max: u32,
}

impl From<Seats> for SeatsView {
    fn from(s: Seats) -> Self {
        let range = seat_range(s.used());
        SeatsView {
            total: s.total,
            used: s.used(),
            free: s.free(),
            missing: s.standing().seats_missing,
            min: *range.start(),
            max: *range.end(),
        }
    }
}

/// What the caller may do to their team, decided by the domain (`teams::may`,
/// `team_billing::seats_form`) so that the screens offer exactly that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeamPermissions {
    pub rename: bool,
    pub invite: bool,
    pub approve_join: bool,
    pub configure_domain_join: bool,
    pub leave: bool,
    pub transfer: bool,
    pub delete: bool,
    pub manage_billing: bool,
    /// The seats form is a checkout of a new subscription.
    pub buy_seats: bool,
    /// The seats form changes the subscription the team has.
    pub change_seats: bool,
    /// The seats form offers the free trial (the team, its owner and customer had none).
    pub start_trial: bool,
    /// The seats form offers paying by invoice (for the seats and interval the rule allows).
    pub pay_by_invoice: bool,
    /// Require (or stop requiring) a second factor of every member.
    pub require_mfa: bool,
    /// Remove members (whose rows then say `may_remove`).
    pub remove_members: bool,
    /// See and change the team's policy.
    pub set_policy: bool,
    pub manage_domains: bool,
    pub manage_scim: bool,
    pub configure_sso: bool,
    pub manage_streams: bool,
    pub view_adoption: bool,
    pub view_activity: bool,
    pub view_invoices: bool,
    pub edit_billing_details: bool,
}

#[derive(Clone, Debug)]
pub struct MemberView {
    pub user_id: Uuid,
    pub email: String,
    pub role: Role,
    pub joined_at: OffsetDateTime,
    /// Calls started this calendar month (UTC).
    pub calls_this_month: u32,
    /// The member has a second factor (a confirmed app or a passkey); None when the caller may
    /// not see it (`teams::Action::ViewSecondFactors`: the owner's and admins').
    pub mfa: Option<bool>,
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
    /// The caller's own personal subscription counts as subscribed, whatever the team's state.
    pub personal_subscription: bool,
    /// The caller's own personal subscription counts as subscribed while the team is paid.
    pub personal_subscription_overlap: bool,
    pub join_domain: Option<String>,
    /// The owner's view only: the domain they may turn domain join on for
    /// (`teams::domain_join_offer`); `None` for everyone else.
    pub domain_join_offer: Option<String>,
    /// The first page of the members (`pages::LIST_PAGE`), as `members_page` answers it.
    pub members: Vec<MemberView>,
    /// The cursor of the members' next page; None when `members` is the whole list.
    pub members_next: Option<String>,
    pub members_count: u32,
    /// Members with a second factor, of the whole team; None when the caller may not see it.
    pub members_with_mfa: Option<u32>,
    /// The first page of the open invites (admins' view only), as `invites_page` answers it.
    pub invites: Vec<InviteView>,
    pub invites_next: Option<String>,
    /// Open invites, expired ones included (0 for members, who see none).
    pub invites_count: u32,
    pub owner_email: String,
    /// The owner requires every member to have a second factor.
    pub mfa_required: bool,
    /// The team, its owner or its customer had a free trial: no second one.
    pub had_trial: bool,
}

impl TeamView {
    fn status(&self) -> Option<SubscriptionStatus> {
        self.subscription_status
            .as_deref()
            .and_then(|s| SubscriptionStatus::parse(s).ok())
    }

    pub fn permissions(&self) -> TeamPermissions {
        let role = self.role;
        let form = seats_form(role, self.status());
        TeamPermissions {
            rename: may(role, Action::Rename),
            invite: may(role, Action::Invite),
            approve_join: may(role, Action::ApproveJoin),
            configure_domain_join: may(role, Action::ConfigureDomainJoin),
            leave: may(role, Action::Leave),
            transfer: may(role, Action::TransferOwnership),
            delete: may(role, Action::Delete),
            manage_billing: may(role, Action::ManageBilling),
            buy_seats: form == Some(SeatsForm::Buy),
            start_trial: form == Some(SeatsForm::Buy) && !self.had_trial,
            pay_by_invoice: form == Some(SeatsForm::Buy),
            change_seats: form == Some(SeatsForm::Change),
            require_mfa: may(role, Action::RequireMfa),
            remove_members: may_remove(role, Role::Member),
            set_policy: may(role, Action::SetPolicy),
            manage_domains: may(role, Action::ManageDomains),
            manage_scim: may(role, Action::ManageScim),
            configure_sso: may(role, Action::ConfigureSso),
            manage_streams: may(role, Action::ManageStreams),
            view_adoption: may(role, Action::ViewAdoption),
            view_activity: may(role, Action::ViewActivity),
            view_invoices: may(role, Action::ViewInvoices),
            edit_billing_details: may(role, Action::EditBillingDetails),
        }
    }

    /// The roles the caller may invite as (`teams::may_invite_as`), member first.
    pub fn invite_roles(&self) -> Vec<Role> {
        [Role::Member, Role::Admin]
            .into_iter()
            .filter(|r| may_invite_as(self.role, *r))
            .collect()
    }

    /// Whether the caller may remove `member` (`teams::may_remove`).
    pub fn may_remove(&self, member: &MemberView) -> bool {
        member_permissions(self.role, member.role).0
    }

    /// Whether the caller may give `member` another role (`teams::may_set_role`, to any role
    /// an invitation may give).
    pub fn may_change_role(&self, member: &MemberView) -> bool {
        member_permissions(self.role, member.role).1
    }

    /// The team's last payment failed (`team_billing::payment_failed`).
    pub fn payment_failed(&self) -> bool {
        payment_failed(self.status())
    }
}

/// Whether a caller with `caller` may remove a member with `member` (`teams::may_remove`), and
/// give them another role (`teams::may_set_role`, to any role).
pub fn member_permissions(caller: Role, member: Role) -> (bool, bool) {
    let change = Role::ALL
        .into_iter()
        .any(|r| r != member && may_set_role(caller, member, r));
    (may_remove(caller, member), change)
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
    /// Its price: the catalogue's monthly or yearly one.
    pub price_id: Option<String>,
    /// Its discount, if it has one.
    pub discount: Option<closewise_domain::promotion::Discount>,
    /// The payment Stripe is retrying, while it is past due.
    pub payment_failure: Option<crate::store::payment_failures::PaymentFailureRow>,
    /// When its free trial ends (Unix seconds), while it is trialing: a trial's first period
    /// ends at the trial's end.
    pub trial_end: Option<i64>,
    /// The reason given when it was set to end (`cancellation::CancellationReason`'s code).
    pub cancellation_reason: Option<String>,
}
