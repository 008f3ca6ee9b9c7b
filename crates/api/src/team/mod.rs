//! The team endpoints (docs/api.md, "Teams"): the team, its members and roles, invitations, domain
//! join; adoption, reclaiming seats and the team's activity (`adoption`, `activity`). Billing for teams (checkout, seats, deleting the team) is `billing`'s, which answers
//! the same `Team` body through `team_response`.
//!
//! The rules are the core's (`closewise_core::teams::Teams`, itself applying
//! `closewise_domain::teams`); a handler parses, makes one call as the signed-in member
//! ([`member`]) and answers. The core writes each change's audit row.

mod activity;
mod addressed;
mod adoption;
pub mod billing;
mod cancel;
pub(crate) mod domains;
mod export;
mod interval;
mod invites;
mod invoices;
mod join;
mod lists;
mod manage;
pub(crate) mod policy;
mod scim_tokens;
pub(crate) mod setup_links;
pub(crate) mod sso;
mod streams;

use axum::http::StatusCode;
use closewise_core::actor::Actor;

use closewise_core::teams::{InviteView, TeamView, TeamsError};
use closewise_domain::teams::Role;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::error::ApiResult;
use crate::extract::AuthUser;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(
            manage::get_team,
            manage::create_team,
            manage::rename_team
        ))
        .routes(routes!(manage::transfer))
        .routes(routes!(interval::preview))
        .routes(routes!(interval::change))
        .routes(routes!(cancel::cancel))
        .routes(routes!(cancel::resume))
        .routes(routes!(manage::set_mfa_policy))
        .routes(routes!(policy::get_policy, policy::put_policy))
        .routes(routes!(manage::leave))
        .routes(routes!(manage::remove_member))
        .routes(routes!(manage::set_role))
        .routes(routes!(lists::members))
        .routes(routes!(invites::invite, lists::invites))
        .routes(routes!(invites::resend))
        .routes(routes!(invites::revoke))
        .routes(routes!(invites::lookup))
        .routes(routes!(invites::accept))
        .routes(routes!(addressed::invites_to_me))
        .routes(routes!(addressed::accept_invite_to_me))
        .routes(routes!(invites::decline))
        .routes(routes!(join::set_domain_join))
        .routes(routes!(join::joinable))
        .routes(routes!(join::request_join, join::join_requests))
        .routes(routes!(join::approve))
        .routes(routes!(join::deny))
        .routes(routes!(sso::get_sso, sso::put_sso, sso::delete_sso))
        .routes(routes!(adoption::adoption))
        .routes(routes!(adoption::adoption_csv))
        .routes(routes!(adoption::reclaim))
        .routes(routes!(activity::audit))
        .routes(routes!(activity::audit_csv))
        .routes(routes!(activity::audit_jsonl))
        .routes(routes!(domains::list_domains, domains::add_domain))
        .routes(routes!(domains::verify_domain))
        .routes(routes!(domains::remove_domain))
        .routes(routes!(scim_tokens::create_token, scim_tokens::list_tokens))
        .routes(routes!(scim_tokens::revoke_token))
        .routes(routes!(streams::create_stream, streams::list_streams))
        .routes(routes!(streams::delete_stream))
        .routes(routes!(streams::test_stream))
        .routes(routes!(streams::rotate_secret))
        .routes(routes!(streams::deliveries))
        .routes(routes!(streams::retry_now))
        .routes(routes!(streams::replay))
        .routes(routes!(invoices::team_invoices))
        .routes(routes!(invoices::get_details, invoices::put_details))
}

/// A role in a team.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
#[schema(as = TeamRole)]
pub enum RoleBody {
    Owner,
    Admin,
    Member,
}

impl From<Role> for RoleBody {
    fn from(r: Role) -> Self {
        match r {
            Role::Owner => RoleBody::Owner,
            Role::Admin => RoleBody::Admin,
            Role::Member => RoleBody::Member,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamSeats)]
pub struct SeatsBody {
    /// The seats bought (the subscription's quantity; 0 before checkout).
    pub total: u32,
    /// Members plus pending invites.
    pub used: u32,
    pub free: u32,
}

/// The seat counts a checkout or a seat change may ask for.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamSeatRange)]
pub struct SeatRangeBody {
    /// Everyone seated (members and pending invites), at least one.
    pub min: u32,
    /// The most seats a team can buy here.
    pub max: u32,
}

/// What the caller may do to their team, decided by the server: the screens offer exactly this.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamPermissions)]
pub struct PermissionsBody {
    pub rename: bool,
    /// Invite, resend and revoke invitations.
    pub invite: bool,
    /// Approve or refuse join requests.
    pub approve_join: bool,
    /// Turn domain join on or off.
    pub configure_domain_join: bool,
    /// Leave the team (everyone but the owner).
    pub leave: bool,
    pub transfer: bool,
    pub delete: bool,
    /// Open the team's billing portal.
    pub manage_billing: bool,
    /// Buy seats: a checkout of a new subscription (the owner, while the team has none that has
    /// not ended, or its first payment was abandoned).
    pub buy_seats: bool,
    /// Preview and change the seats of the subscription the team has (the owner).
    pub change_seats: bool,
    /// Buy seats with a free trial (`trial: true`): none yet for the team, its owner or customer.
    pub start_trial: bool,
    /// Buy seats paid by invoice (`collection: "invoice"`), from `invoice_min_seats` yearly.
    pub pay_by_invoice: bool,
    /// Require a second factor of every member (`PUT /api/team/mfa-policy`; the owner).
    pub require_mfa: bool,
    /// Remove members: the members list's actions (each row's `may_remove` says whom).
    pub remove_members: bool,
    /// See and change the team's policy (`GET`/`PUT /api/team/policy`).
    pub set_policy: bool,
    /// Add, verify and remove the team's company domains (`/api/team/domains`).
    pub manage_domains: bool,
    /// Create, list and revoke SCIM tokens (`/api/team/scim/tokens`).
    pub manage_scim: bool,
    /// Configure single sign-on (`/api/team/sso`).
    pub configure_sso: bool,
    /// Add, test, rotate and remove the team's event streams (`/api/team/streams`).
    pub manage_streams: bool,
    /// See the adoption report (`GET /api/team/adoption`).
    pub view_adoption: bool,
    /// See and export the team's activity (`GET /api/team/audit`).
    pub view_activity: bool,
    /// See the team's invoices and its company details (`GET /api/team/billing/invoices`,
    /// `GET /api/team/billing/details`).
    pub view_invoices: bool,
    /// Change the company details on the invoices (`PUT /api/team/billing/details`).
    pub edit_billing_details: bool,
}

impl PermissionsBody {
    fn of(t: &TeamView) -> Self {
        let p = t.permissions();
        PermissionsBody {
            rename: p.rename,
            invite: p.invite,
            approve_join: p.approve_join,
            configure_domain_join: p.configure_domain_join,
            leave: p.leave,
            transfer: p.transfer,
            delete: p.delete,
            manage_billing: p.manage_billing,
            buy_seats: p.buy_seats,
            change_seats: p.change_seats,
            start_trial: p.start_trial,
            pay_by_invoice: p.pay_by_invoice,
            require_mfa: p.require_mfa,
            remove_members: p.remove_members,
            set_policy: p.set_policy,
            manage_domains: p.manage_domains,
            manage_scim: p.manage_scim,
            configure_sso: p.configure_sso,
            manage_streams: p.manage_streams,
            view_adoption: p.view_adoption,
            view_activity: p.view_activity,
            view_invoices: p.view_invoices,
            edit_billing_details: p.edit_billing_details,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamSubscription)]
pub struct TeamSubscriptionBody {
    #[schema(schema_with = crate::schemas::team_subscription_status)]
    pub status: String,
    /// Unix seconds.
    pub current_period_end: Option<i64>,
    pub cancel_at_period_end: bool,
    /// How the subscription is billed: `month` or `year` (null for a price the catalogue does
    /// not sell).
    #[schema(schema_with = crate::schemas::interval)]
    pub interval: Option<String>,
    /// The discount on the subscription while it applies (null when none).
    pub discount: Option<crate::billing::routes::DiscountBody>,
    // While a payment failed and Stripe retries it (`past_due`): when it first failed, its attempts
    // so far and Stripe's next try (Unix seconds; null when none is left), all null otherwise
    // (docs/api.md). Their doc comments are left out to keep the web's generated types of the
    // shared schemas within a file.
    pub past_due_since: Option<i64>,
    pub attempt_count: Option<u32>,
    pub next_payment_attempt: Option<i64>,
    /// Unix seconds: when the free trial ends (charged then), while `trialing`; else null.
    pub trial_end: Option<i64>,
    /// The reason given when it was set to end (null: none given, or it renews).
    #[schema(schema_with = crate::schemas::cancellation_reason_optional)]
    pub cancellation_reason: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamMember)]
pub struct MemberBody {
    pub user_id: Uuid,
    pub email: String,
    pub role: RoleBody,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub joined_at: OffsetDateTime,
    /// Calls started since the first of this month (UTC).
    pub calls_this_month: u32,
    /// The caller may remove this member.
    pub may_remove: bool,
    /// The caller may make this member an admin or a member.
    pub may_change_role: bool,
    /// The member has a second factor (an authenticator app or a passkey); null for a caller who
    /// is a plain member (only the owner and admins see who has one).
    pub mfa: Option<bool>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamInvite)]
pub struct InviteBody {
    pub id: Uuid,
    pub email: String,
    pub role: RoleBody,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub last_sent_at: OffsetDateTime,
    /// Expired invites hold no seat; a resend revives one when a seat is free.
    pub expired: bool,
}

impl From<InviteView> for InviteBody {
    fn from(i: InviteView) -> Self {
        InviteBody {
            id: i.id,
            email: i.email,
            role: i.role.into(),
            created_at: i.created_at,
            expires_at: i.expires_at,
            last_sent_at: i.last_sent_at,
            expired: i.expired,
        }
    }
}

/// The team as the caller sees it.
#[derive(Serialize, ToSchema)]
#[schema(as = Team)]
pub struct TeamBody {
    pub id: Uuid,
    pub name: String,
    /// The caller's role.
    pub role: RoleBody,
    pub seats: SeatsBody,
    pub seat_range: SeatRangeBody,
    /// Null before the first checkout.
    pub subscription: Option<TeamSubscriptionBody>,
    /// The team's subscription counts as subscribed (active or trialing).
    pub paid: bool,
    /// The team's last payment failed (past due, unpaid or paused).
    pub payment_failed: bool,
    /// What the caller may do to the team.
    pub may: PermissionsBody,
    /// The roles the caller may invite as: `["member", "admin"]` for the owner, `["member"]` for
    /// admins, `[]` for members.
    pub invite_roles: Vec<RoleBody>,
    /// The domain whose verified addresses may ask to join; null: domain join is off.
    pub join_domain: Option<String>,
    /// The owner's view: the domain they may turn domain join on for (their verified address's,
    /// unless a public mail provider's); null for an unverified owner or a public provider's
    /// address, and always for admins and members. The server decides; the screen renders it.
    pub domain_join_offer: Option<String>,
    /// The caller's own personal subscription counts as subscribed, whatever the team's state:
    /// buying seats would then pay twice for the caller (the seats form says so first).
    pub personal_subscription: bool,
    /// The caller's own personal subscription counts as subscribed while the team is paid.
    pub personal_subscription_overlap: bool,
    /// Fewer seats than members (Stripe lowered them): nobody was removed, but invites, accepting
    /// one and join approvals are `409 team_over_seats` until the seats cover the members.
    pub over_seats: bool,
    /// Seats to buy (or members to remove) until they do; 0 when not over seats.
    pub seats_missing: u32,
    /// The first page of the members, in the order they joined (the owner first): the same rows
    /// as the first page of `GET /api/team/members`.
    pub members: Vec<MemberBody>,
    /// Pass it as `cursor` to `GET /api/team/members` for the members after `members`; null when
    /// `members` is the whole list.
    pub members_next: Option<String>,
    /// Members of the whole team (the owner included).
    pub members_count: u32,
    /// Members of the whole team with a second factor (an authenticator app or a passkey); null
    /// for a caller who is a plain member.
    pub members_with_mfa: Option<u32>,
    /// The first page of the open invites (expired ones included), oldest first: the first page of
    /// `GET /api/team/invites`; `[]` for members.
    pub invites: Vec<InviteBody>,
    /// Pass it as `cursor` to `GET /api/team/invites` for the invites after `invites`; null when
    /// `invites` is the whole list (always for members).
    pub invites_next: Option<String>,
    /// Open invites of the whole team (expired ones included); 0 for members.
    pub invites_count: u32,
    /// The owner's address (admins are told whom to ask for seats).
    pub owner_email: String,
    /// The owner requires a second factor of every member (`PUT /api/team/mfa-policy`).
    pub mfa_required: bool,
    /// The fewest seats paid by invoice (billed yearly).
    pub invoice_min_seats: u32,
}

impl TeamBody {
    /// The team as the API answers it; `prices` names the subscription's interval, `now` whether
    /// its discount still applies.
    pub fn new(
        t: TeamView,
        prices: closewise_domain::catalogue::PriceIds<'_>,
        now: OffsetDateTime,
    ) -> Self {
        let may = PermissionsBody::of(&t);
        let invite_roles = t.invite_roles().into_iter().map(RoleBody::from).collect();
        let payment_failed = t.payment_failed();
        let members = t
            .members
            .iter()
            .map(|m| MemberBody {
                user_id: m.user_id,
                email: m.email.clone(),
                role: m.role.into(),
                joined_at: m.joined_at,
                calls_this_month: m.calls_this_month,
                may_remove: t.may_remove(m),
                may_change_role: t.may_change_role(m),
                mfa: m.mfa,
            })
            .collect();
        TeamBody {
            id: t.id,
            name: t.name,
            role: t.role.into(),
            seats: SeatsBody {
                total: t.seats.total,
                used: t.seats.used,
                free: t.seats.free,
            },
            seat_range: SeatRangeBody {
                min: t.seats.min,
                max: t.seats.max,
            },
            subscription: t.subscription.map(|s| TeamSubscriptionBody {
                status: s.status,
                current_period_end: s.current_period_end,
                cancel_at_period_end: s.cancel_at_period_end,
                interval: s
                    .price_id
                    .as_deref()
                    .and_then(|p| prices.interval_of(p))
                    .map(|i| i.as_str().to_owned()),
                discount: crate::billing::routes::DiscountBody::current(s.discount, now),
                past_due_since: s.payment_failure.as_ref().map(|f| f.past_due_since),
                attempt_count: s
                    .payment_failure
                    .as_ref()
                    .map(|f| u32::try_from(f.attempt_count).unwrap_or(0)),
                next_payment_attempt: s
                    .payment_failure
                    .as_ref()
                    .and_then(|f| f.next_payment_attempt),
                trial_end: s.trial_end,
                cancellation_reason: s.cancellation_reason,
            }),
            paid: t.paid,
            payment_failed,
            may,
            invite_roles,
            join_domain: t.join_domain,
            domain_join_offer: t.domain_join_offer,
            personal_subscription: t.personal_subscription,
            personal_subscription_overlap: t.personal_subscription_overlap,
            over_seats: t.seats.missing > 0,
            seats_missing: t.seats.missing,
            mfa_required: t.mfa_required,
            invoice_min_seats: closewise_domain::team_purchase::INVOICE_MIN_SEATS,
            members,
            members_next: t.members_next,
            members_count: t.members_count,
            members_with_mfa: t.members_with_mfa,
            invites_next: t.invites_next,
            invites_count: t.invites_count,
            owner_email: t.owner_email,
            invites: t.invites.into_iter().map(InviteBody::from).collect(),
        }
    }
}

/// `{"team": Team}`.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamAnswer)]
pub struct TeamResponse {
    pub team: TeamBody,
}

/// `{"team": Team | null}`: null when the caller is in no team.
#[derive(Serialize, ToSchema)]
#[schema(as = MaybeTeamAnswer)]
pub struct MaybeTeamResponse {
    pub team: Option<TeamBody>,
}

impl TeamResponse {
    pub fn new(view: TeamView, state: &AppState) -> Self {
        TeamResponse {
            team: TeamBody::new(view, state.settings.stripe.prices(), state.clock.now()),
        }
    }
}

/// The caller's team as `{"team": Team}` (for the team billing endpoints too).
pub async fn team_response(state: &AppState, user_id: Uuid) -> ApiResult<TeamResponse> {
    let view = state.teams.view(user_id).await?;
    Ok(TeamResponse {
        team: TeamBody::new(view, state.settings.stripe.prices(), state.clock.now()),
    })
}

/// The signed-in caller as the one who makes a change.
pub(crate) fn member(auth: &AuthUser) -> Actor {
    Actor::member(auth.user_id, auth.email.clone())
}

/// A role from a request: only `admin` and `member` can be given (ownership is transferred).
pub(crate) fn parse_role(raw: &str) -> ApiResult<Role> {
    Role::parse(raw.trim())
        .filter(Role::invitable)
        .ok_or_else(|| TeamsError::InvalidRole.into())
}

/// An id in a path that is not a UUID names nothing of the caller's team.
pub(crate) fn path_id(raw: &str) -> ApiResult<Uuid> {
    Uuid::parse_str(raw).map_err(|_| TeamsError::TeamNotFound.into())
}

/// The 204 of a change with nothing to answer.
pub(crate) fn no_content() -> StatusCode {
    StatusCode::NO_CONTENT
}
