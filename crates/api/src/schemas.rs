//! The schemas of fields whose values the domain defines: a plan, a status, a role, a checkout
//! offer… are strings on the wire, but the document lists their values (`enum`) so that clients'
//! generated types are unions, and the password's length bounds are the domain's. Each function is
//! a field's `#[schema(schema_with = …)]`; the values come from the domain's enums (`as_str`), so
//! the document cannot drift from the rules.

use closewise_domain::catalogue::CheckoutMode;
use closewise_domain::checkout::CheckoutOffer;
use closewise_domain::oauth::DeviceStatus;
use closewise_domain::password::Password;
use closewise_domain::plan::{PlanStatus, PlanType};
use closewise_domain::policy::{APPS, CONSENT_MODES, RETENTION_DAYS};
use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::Source;
use closewise_domain::teams::Role;
use closewise_domain::usage::Warning;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, SchemaType, Type};
use utoipa::openapi::Array;
use utoipa::openapi::Object;

/// A string that is one of `values`.
fn one_of<'a>(values: impl IntoIterator<Item = &'a str>, description: &str) -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values.into_iter().collect::<Vec<_>>()))
        .description(Some(description))
        .build()
}

/// One of `values`, or null.
fn one_of_or_null<'a>(values: impl IntoIterator<Item = &'a str>, description: &str) -> Object {
    let values = values
        .into_iter()
        .map(serde_json::Value::from)
        .chain([serde_json::Value::Null]);
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(values.collect::<Vec<_>>()))
        .description(Some(description))
        .build()
}

pub fn plan_type() -> Object {
    one_of(
        PlanType::ALL.map(|p| p.as_str()),
        "The plan: the Free Trial or the paid monthly plan.",
    )
}

pub fn plan_status() -> Object {
    one_of(
        PlanStatus::ALL.map(|s| s.as_str()),
        "Whether the plan is in force.",
    )
}

pub fn subscription_status() -> Object {
    one_of(
        SubscriptionStatus::ALL.map(|s| s.as_str()),
        "Stripe's status (`not_started` before any checkout).",
    )
}

/// A team's subscription exists, so it has started.
pub fn team_subscription_status() -> Object {
    one_of(
        SubscriptionStatus::ALL
            .into_iter()
            .filter(|s| *s != SubscriptionStatus::NotStarted)
            .map(|s| s.as_str()),
        "Stripe's status.",
    )
}

pub fn checkout_offer() -> Object {
    let offers = [
        CheckoutOffer::VerifyEmail,
        CheckoutOffer::CurrentPlan,
        CheckoutOffer::Available,
    ];
    one_of(
        offers.map(|o| o.as_str()),
        "What the pricing page's checkout button offers: `verify_email` (the address first), \
         `current_plan` (paid already, personally or through a seat in a paid team) or `available`.",
    )
}

pub fn interval() -> Object {
    one_of_or_null(
        closewise_domain::billing_interval::Interval::ALL.map(|i| i.as_str()),
        "How the subscription is billed (Stripe's `recurring[interval]`), or null for a price the \
         catalogue does not sell.",
    )
}

/// How a team pays for its seats: by card on Stripe's checkout, or by invoice.
pub fn collection() -> Object {
    one_of(
        ["card", "invoice"],
        "How the seats are paid: `card` (Stripe's checkout) or `invoice` (Stripe sends an invoice).",
    )
}

/// [`collection`], or null for the default (`card`).
pub fn collection_or_null() -> Object {
    one_of_or_null(
        ["card", "invoice"],
        "How the seats are paid: `card` (the default: Stripe's checkout) or `invoice` (no \
         checkout: Stripe sends an invoice).",
    )
}

/// How long a coupon's discount applies (Stripe's `duration`).
pub fn discount_duration() -> Object {
    one_of(
        ["once", "repeating", "forever"],
        "Stripe's coupon `duration`.",
    )
}

/// Stripe's invoice statuses.
pub fn invoice_status() -> Object {
    one_of(
        ["draft", "open", "paid", "uncollectible", "void"],
        "Stripe's invoice status.",
    )
}

/// The tax ID types company details take (`billing_details::TaxIdKind`).
pub fn tax_id_type() -> Object {
    one_of(
        closewise_domain::billing_details::TaxIdKind::ALL.map(|k| k.as_str()),
        "Stripe's tax ID type.",
    )
}

pub fn checkout_mode() -> Object {
    let modes = [CheckoutMode::Subscription, CheckoutMode::Payment];
    one_of(modes.map(|m| m.as_str()), "Stripe's checkout mode.")
}

pub fn entitlement_source() -> Object {
    one_of_or_null(
        [Source::Personal, Source::Team].map(|s| s.as_str()),
        "Where paid access comes from: `personal`, `team` (a seat of a paid team), or null on the \
         Free Trial.",
    )
}

pub fn usage_warning() -> Object {
    one_of_or_null(
        [Warning::PaymentFailed].map(|w| w.as_str()),
        "`payment_failed` while a subscription's payment failed and it has not ended.",
    )
}

/// The roles an invitation or a role change gives: ownership moves by transfer.
pub fn invitable_role() -> Object {
    one_of(
        Role::ALL
            .into_iter()
            .filter(Role::invitable)
            .map(|r| r.as_str()),
        "The role to give (never `owner`: ownership is transferred).",
    )
}

pub fn device_pending() -> Object {
    one_of([DeviceStatus::Pending.as_str()], "Always `pending`.")
}

pub fn device_decision() -> Object {
    one_of(
        [DeviceStatus::Approved, DeviceStatus::Denied].map(|s| s.as_str()),
        "The user's decision.",
    )
}

/// `POST /api/auth/logout?scope=`: core's sign-out (`sessions::sign_out`) reads these two.
pub fn sign_out_scope() -> Object {
    one_of(
        ["local", "global"],
        "`local` (default): this session; `global`: every session of the user.",
    )
}

/// A new password: the domain's length bounds (commonness is checked by the server only).
pub fn new_password() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(Password::MIN_LEN))
        .max_length(Some(Password::MAX_LEN))
        .description(Some(
            "The new password: its length in characters within these bounds, and not a common \
             password (`weak_password`).",
        ))
        .build()
}

/// A team policy's consent notice mode (`closewise_domain::policy`).
pub fn consent_mode() -> Object {
    one_of(
        CONSENT_MODES,
        "`off`, `show` (shown at the start of every call) or `read_aloud`.",
    )
}

/// The apps a team policy allows.
pub fn policy_apps() -> Array {
    ArrayBuilder::new()
        .items(one_of(
            APPS,
            "A meeting app: Zoom, Google Meet, Microsoft Teams or a phone dialer.",
        ))
        .description(Some(
            "The apps the assistant may attach to (all four by default).",
        ))
        .build()
}

/// Transcript retention on the laptop, in days.
pub fn retention_days() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .enum_values(Some(RETENTION_DAYS.to_vec()))
        .description(Some(
            "Days transcripts stay on the laptop: 0 (not kept), 7, 30 or 90.",
        ))
        .build()
}

/// A reason a cancellation gives (the domain's list, Stripe's `cancellation_details.feedback`
/// names).
pub fn cancellation_reason() -> Object {
    one_of(
        closewise_domain::cancellation::CancellationReason::ALL.map(|r| r.as_str()),
        "A cancellation's reason.",
    )
}

/// A reason a cancellation gave, or null. Undescribed: it is in the shared schemas the web's
/// generated types keep within one file (docs/api.md describes it).
pub fn cancellation_reason_optional() -> Object {
    let values = closewise_domain::cancellation::CancellationReason::ALL
        .map(|r| serde_json::Value::from(r.as_str()))
        .into_iter()
        .chain([serde_json::Value::Null]);
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(values.collect::<Vec<_>>()))
        .build()
}
