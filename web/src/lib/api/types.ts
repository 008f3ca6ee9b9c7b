//! Types of the API contract (docs/api.md, docs/openapi.json).

export interface User {
  id: string;
  email: string;
  email_confirmed_at: string | null;
  created_at: string;
}

/**
 * `POST /api/auth/verify`: `choose_password` when the address was signed up for more than once; no
 * pending password became the account's, and the page sends the clicker's to `/api/auth/verify/password`.
 */
export type VerifyAnswer =
  { status: "confirmed"; user: User } | { status: "choose_password"; user: User; password_token: string };

export interface Session {
  access_token: string;
  token_type: string;
  expires_in: number;
  /** Unix seconds. */
  expires_at: number;
  /**
   * Only native clients (the desktop app) get it in the body; for this site it lives in the
   * httpOnly `cw_refresh` cookie and the app never holds it.
   */
  refresh_token?: never;
  user: User;
}

export type PlanType = "free" | "monthly";

export interface Plan {
  id: string;
  user_id: string;
  plan_type: PlanType;
  status: "active";
  plan_started_at: string;
  plan_updated_at: string;
  created_at: string;
  updated_at: string;
  stripe_subscription_id: string | null;
  stripe_customer_id: string | null;
  subscription_id: string | null;
}

export type SubscriptionStatus =
  "active" | "trialing" | "canceled" | "incomplete" | "incomplete_expired" | "past_due" | "unpaid" | "paused" | "not_started";

export interface Subscription {
  price_id: string | null;
  subscription_status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  /** Unix seconds. */
  current_period_end: number | null;
  payment_method_brand: string | null;
  payment_method_last4: string | null;
}

export type CheckoutMode = "subscription" | "payment";

export interface Product {
  id: string;
  priceId: string;
  name: string;
  description: string;
  mode: CheckoutMode;
  price: number;
  currency: string;
  interval: string;
}

export interface ApiErrorBody {
  error: { code: string; message: string };
}

// --- The desktop app (docs/api.md "The desktop app") ----------------------------------------------

/** The query the desktop app opens `/authorize` with (RFC 8252 loopback + PKCE). */
export interface AuthorizeParams {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: string;
  state: string;
  device_name?: string;
  platform?: string;
}

/** `GET /api/auth/authorize`: the checked request, for the consent page to show. */
export interface AuthorizeCheck {
  client_id: string;
  client_name: string;
  redirect_uri: string;
  /** Chosen by the app that opened the page: shown as such. */
  device_name: string | null;
  platform: string | null;
  /** The address this page was opened from (the code only goes back to this computer). */
  requested_from: string;
}

export type AuthorizeDecision = "allow" | "deny";

/** `POST /api/auth/authorize`: where the browser goes next (the app's loopback callback). */
export interface AuthorizeResult {
  redirect_to: string;
}

/** `POST /api/auth/device` (the desktop app's call; the web only enters the code). */
export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** `POST /api/auth/device/lookup`: the pending request behind a user code. */
export interface DeviceCodeRequest {
  user_code: string;
  /** Chosen by the device that asked: shown as such. */
  device_name: string;
  platform: string;
  /** The address the request came from; null for requests older than the record of addresses. */
  requested_from: string | null;
  /** Computed by the server: the request came from the approver's network (/24, /64). */
  same_network: boolean;
  requested_at: string;
  expires_at: string;
  status: "pending";
}

/** `POST /api/auth/device/approve` and `/deny`. */
export interface DeviceCodeDecision {
  status: "approved" | "denied";
}

/** `POST /api/auth/reauthenticate`: until when the session may take sensitive actions. */
export interface Reauthenticated {
  reauthenticated_until: string;
}

/** One of `GET /api/auth/devices`: a live desktop session. */
export interface Device {
  id: string;
  name: string;
  platform: string;
  created_at: string;
  last_seen_at: string;
  /** The session of the access token asking; never true for the web's own session. */
  current: boolean;
}

/** RFC 6749 §5.2 / RFC 8628 §3.5 errors of the OAuth grants (the desktop app's, not the web's). */
export interface OAuthErrorBody {
  error: string;
  error_description: string;
  interval?: number;
}

// --- Entitlements and calls (docs/api.md "Entitlements and calls") ---------------------------------

export interface Entitlements {
  plan_type: PlanType;
  unlimited: boolean;
  /** Null for paid plans. */
  calls: { limit: number; used: number; remaining: number } | null;
  max_call_seconds: number | null;
  calls_this_month: number;
  warning: "payment_failed" | null;
  entitlement_token: string;
  /** Where the paid plan comes from: the caller's own subscription, a team's seat, or null on the Free Trial. */
  source: "personal" | "team" | null;
  /** The team whose seat the caller holds, paid or not. */
  team: { id: string; name: string } | null;
}

/** `POST /api/calls` (the desktop app's). */
export interface CallStarted {
  call_id: string;
  started_at: string;
  max_seconds: number | null;
}

/** `POST /api/calls/{id}/heartbeat` (the desktop app's). */
export interface CallHeartbeat {
  call_id: string;
  started_at: string;
  elapsed_seconds: number;
  max_seconds: number | null;
  ended_at: null;
}

/** `POST /api/calls/{id}/end` (the desktop app's). */
export interface CallEnded {
  call_id: string;
  started_at: string;
  ended_at: string;
  duration_seconds: number;
}

// --- Teams (docs/teams.md "Endpoints") ------------------------------------------------------------

export type TeamRole = "owner" | "admin" | "member";
/** The roles an invitation (or a role change) can give; ownership moves by transfer. */
export type InviteRole = Exclude<TeamRole, "owner">;

export interface TeamSubscription {
  status: Exclude<SubscriptionStatus, "not_started">;
  /** Unix seconds. */
  current_period_end: number | null;
  cancel_at_period_end: boolean;
}

export interface TeamMember {
  user_id: string;
  email: string;
  role: TeamRole;
  joined_at: string;
  calls_this_month: number;
  /** The caller may remove this member (the server decides). */
  may_remove: boolean;
  /** The caller may make this member an admin or a member. */
  may_change_role: boolean;
}

export interface TeamInvite {
  id: string;
  email: string;
  role: InviteRole;
  created_at: string;
  expires_at: string;
  last_sent_at: string;
  expired: boolean;
}

/** `Team.may`. `buy_seats`: the seats form is a checkout of a new subscription; `change_seats`: it
 * changes the subscription the team has. Both false for everyone but the owner. */
export interface TeamPermissions {
  rename: boolean;
  invite: boolean;
  approve_join: boolean;
  configure_domain_join: boolean;
  leave: boolean;
  transfer: boolean;
  delete: boolean;
  manage_billing: boolean;
  buy_seats: boolean;
  change_seats: boolean;
}

export interface Team {
  id: string;
  name: string;
  /** The caller's role. */
  role: TeamRole;
  /** `used` counts members and pending invites. */
  seats: { total: number; used: number; free: number };
  /** The seat counts a checkout or a seat change may ask for: everyone seated (at least 1) to the most a team buys. */
  seat_range: { min: number; max: number };
  /** Null before the first checkout. */
  subscription: TeamSubscription | null;
  /** The subscription counts as subscribed (active or trialing). */
  paid: boolean;
  /** The team's last payment failed (past due, unpaid or paused). */
  payment_failed: boolean;
  /** What the caller may do to the team: the server decides, the screens offer exactly this. */
  may: TeamPermissions;
  /** The roles the caller may invite as (member first); empty for members. */
  invite_roles: InviteRole[];
  join_domain: string | null;
  /**
   * The owner's view: the domain they may turn domain join on for (their verified address's, unless
   * a public mail provider's; the server's list decides). Null otherwise, and for admins and members.
   */
  domain_join_offer: string | null;
  /** The caller also pays for a personal subscription while the team is paid. */
  personal_subscription_overlap: boolean;
  /** Fewer seats than members (Stripe lowered them): nobody was removed, but invites, accepting one
   * and join approvals are `409 team_over_seats` until the seats cover the members. */
  over_seats: boolean;
  /** Seats to buy (or members to remove) until they do; 0 when not over seats. */
  seats_missing: number;
  members: TeamMember[];
  /** Empty for members (admins' and the owner's view only). */
  invites: TeamInvite[];
}

/** `POST /api/team/invites/lookup` (no auth). */
export interface InviteLookup {
  team_name: string;
  role: InviteRole;
  email: string;
}

/** `GET /api/team/joinable`: a team whose domain join is on for the caller's verified domain. */
export interface JoinableTeam {
  id: string;
  name: string;
}

/** `GET /api/team/join-requests`: an undecided request to join the caller's team. */
export interface JoinRequest {
  id: string;
  user_id: string;
  email: string;
  created_at: string;
}

/** `GET /api/team/seats/preview?seats=N`: amounts in the currency's smallest unit (cents). */
export interface SeatsPreview {
  seats: number;
  /** The prorated difference due now; negative for a credit. */
  amount_due_now: number;
  /** The new monthly total. */
  next_total: number;
  currency: string;
  /** Unix seconds; sent back with `PUT /api/team/seats` so the charge matches the preview. */
  proration_date: number;
}
