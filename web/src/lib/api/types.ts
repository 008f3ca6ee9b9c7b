//! Named aliases over the API's generated types (./gen/, `npm run gen:api` from
//! docs/openapi.json): the document is the contract, these are the names the web uses. The
//! document lists the values of plans, statuses, offers, modes and roles (`enum`), so their types
//! here are the generated unions; nothing is written twice.

import type { components, paths } from "./gen";

type Schemas = components["schemas"];
/** `T` with `K` narrowed to `V` (where the document's type is wider than the web's use). */
type Narrow<T, K extends keyof T, V> = Omit<T, K> & { [P in K]: V };

export type User = Schemas["UserBody"];
/**
 * The refresh token is for native clients (the desktop app); this site's lives in the httpOnly
 * `cw_refresh` cookie, so the web's type has none and `tsc` fails on any use (docs/security.md 12.2).
 */
export type Session = Omit<Schemas["SessionBody"], "refresh_token"> & { refresh_token?: never };
/** `POST /api/auth/verify`: `choose_password` comes with a `password_token`. */
export type VerifyAnswer = Schemas["VerifyAnswer"];
/** `POST /api/auth/reset`: what the reset leaves to review (passkeys) and what it signed out (desktop apps). */
export type PasswordReset = Schemas["PasswordReset"];
export type ApiErrorBody = Schemas["ErrorBody"];
/** `POST /api/auth/logout?scope=`: this session or every session. */
export type SignOutScope = NonNullable<NonNullable<paths["/api/auth/logout"]["post"]["parameters"]["query"]>["scope"]>;

export type Plan = Schemas["PlanBody"];
export type PlanType = Plan["plan_type"];
/** What the pricing page's checkout button offers (`Plan.checkout`, decided by the server). */
export type CheckoutOffer = Plan["checkout"];
export type Subscription = Schemas["SubscriptionBody"];
export type Discount = Schemas["Discount"];
export type SubscriptionStatus = Subscription["subscription_status"];
/** `GET /api/billing/cancellation-reasons`: the reasons a cancellation may give, with their labels. */
export type CancellationReasons = Schemas["CancellationReasonsAnswer"];
export type CancellationReason = CancellationReasons["reasons"][number]["reason"];
export type Product = Schemas["ProductBody"];
/** `GET /api/products`: what is sold, and the Free Trial before it. */
export type Catalogue = Schemas["ProductsBody"];
export type CheckoutMode = Product["mode"];

/** A Mac build: Apple Silicon or Intel. */
export type MacArch = keyof Schemas["MacDownloads"];
/** `GET /api/downloads`: the desktop release the download chooser offers, set at run time. */
export type Downloads = Schemas["DownloadsBody"];

// The desktop app (docs/api.md "The desktop app").
/** The query the desktop app opens `/authorize` with (RFC 8252 loopback + PKCE). */
export type AuthorizeParams = NonNullable<paths["/api/auth/authorize"]["get"]["parameters"]["query"]>;
export type AuthorizeCheck = Schemas["AuthorizeInfo"];
export type AuthorizeDecision = Schemas["Decision"];
export type AuthorizeResult = Schemas["AuthorizeRedirect"];
export type DeviceAuthorization = Schemas["DeviceAuthorization"];
export type DeviceCodeRequest = Schemas["PendingDevice"];
export type DeviceCodeDecision = Schemas["DeviceDecision"];
export type Reauthenticated = Schemas["Reauthenticated"];
export type Device = Schemas["Device"];
export type OAuthErrorBody = Schemas["OAuthErrorBody"];

// Entitlements and calls.
export type Entitlements = Schemas["EntitlementsBody"];
export type CallStarted = Schemas["CallStartedBody"];
export type CallHeartbeat = Schemas["CallHeartbeatBody"];
export type CallEnded = Schemas["CallEndedBody"];

// Teams (docs/teams.md "Endpoints").
export type TeamRole = Schemas["TeamRole"];
/** The roles an invitation (or a role change) can give; ownership moves by transfer. */
export type InviteRole = Exclude<TeamRole, "owner">;
export type TeamSubscription = Schemas["TeamSubscription"];
export type TeamMember = Schemas["TeamMember"];
export type TeamInvite = Schemas["TeamInvite"];
/** `GET /api/team/members`, `GET /api/team/invites`: a page and the cursor of the next (null: the last). */
export type TeamMembersPage = Schemas["TeamMembersPage"];
export type TeamInvitesPage = Schemas["TeamInvitesPage"];
/** `Team.may`: what the caller may do to the team (the server decides, the screens offer exactly this). */
export type TeamPermissions = Schemas["TeamPermissions"];
/** `invite_roles` never holds `owner` (the domain's `invite_roles`). */
export type Team = Narrow<Narrow<Schemas["Team"], "subscription", TeamSubscription | null>, "invite_roles", InviteRole[]>;
export type TeamDomain = Schemas["TeamDomain"];
export type InviteLookup = Schemas["InviteLookupAnswer"];
export type InviteToMe = Schemas["InviteToMe"];
export type JoinableTeam = Schemas["JoinableTeam"];
export type JoinRequest = Schemas["JoinRequest"];
/** `GET /api/team/seats/preview?seats=N`: amounts in cents. */
export type SeatsPreview = Schemas["SeatsPreviewAnswer"];
/** `POST /api/team/checkout`: the checkout to open, or the seats active at once and the invoice sent. */
export type TeamCheckoutAnswer = Schemas["TeamCheckoutAnswer"];
/** How a subscription is billed: `month` or `year`. */
export type BillingInterval = NonNullable<Schemas["IntervalPreviewAnswer"]["interval"]>;
export type IntervalPreview = Omit<Schemas["IntervalPreviewAnswer"], "interval"> & { interval: BillingInterval };

// Second factors (docs/api.md "Second factor").
export type MfaStatus = Schemas["MfaStatus"];
export type TotpEnrolment = Schemas["TotpEnrolment"];
export type RecoveryCodes = Schemas["RecoveryCodes"];
export type Passkey = Schemas["Passkey"];
/** WebAuthn L3's JSON encodings (binary fields base64url), as the API sends and reads them. */
export type CreationOptionsJSON = Record<string, unknown> & { challenge: string };
export type RequestOptionsJSON = Record<string, unknown> & { challenge: string };
export type RegistrationResponseJSON = Record<string, unknown>;
export type AuthenticationResponseJSON = Record<string, unknown>;
/** A passkey's answer to a step-up challenge, the second factor of `POST /api/auth/reauthenticate`. */
export type StepUpPasskey = { challenge_id: string; credential: AuthenticationResponseJSON };
/** `PasskeyChallenge`, its `options` the JSON for `navigator.credentials.create` or `.get`. */
export interface PasskeyChallenge<K extends "create" | "get"> {
  challenge_id: string;
  options: K extends "create" ? CreationOptionsJSON : RequestOptionsJSON;
}

/** A team's policy for the desktop app (`GET`/`PUT /api/team/policy`, the entitlement token's `policy`). */
export type TeamPolicy = Schemas["TeamPolicy"];
export type TeamPolicyAnswer = Schemas["TeamPolicyAnswer"];
export type ScimToken = Schemas["ScimToken"];
export type ScimTokenCreated = Schemas["ScimTokenCreated"];
/** The team's event streams (`/api/team/streams`): destinations, deliveries. */
export type EventStream = Schemas["EventStream"];
export type EventStreamCreated = Schemas["EventStreamCreated"];
export type EventStreamDelivery = Schemas["EventStreamDelivery"];

/** An invoice as the lists show it (`GET /api/billing/invoices`, `GET /api/team/billing/invoices`). */
export type Invoice = Schemas["Invoice"];
export type InvoicesPage = Schemas["InvoicesPage"];
/** The company name, address and tax IDs on the team's invoices. */
export type BillingDetails = Schemas["BillingDetails"];
export type TaxIdType = Schemas["TaxIdEntry"]["type"];
