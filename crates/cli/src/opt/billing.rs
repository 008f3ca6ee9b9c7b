//! `closewise billing ...`: coupons and promotion codes on Stripe, and failed payments.

use clap::{Args, Subcommand, ValueEnum};

use super::{Confirm, Output, Reason, StripeArgs};

#[derive(Subcommand, Debug)]
pub enum BillingCommand {
    /// Coupons: how much comes off and for how long.
    #[command(subcommand)]
    Coupons(CouponsCommand),
    /// Promotion codes: what customers type (or follow a /pricing?promo=CODE link) for a coupon.
    #[command(subcommand)]
    PromoCodes(PromoCodesCommand),
    /// Failed payments Stripe is retrying (dunning).
    #[command(subcommand)]
    Dunning(DunningCommand),
}

#[derive(Subcommand, Debug)]
pub enum DunningCommand {
    /// Who is past due (accounts and teams' owners), since when, the attempts and Stripe's next try.
    ///
    /// Example: closewise billing dunning list --json
    List(Output),
}

#[derive(Subcommand, Debug)]
pub enum CouponsCommand {
    /// Creates a coupon on Stripe.
    ///
    /// Example: closewise billing coupons create --percent-off 20 --duration repeating --months 3 --name "Launch"
    Create(CouponCreate),
    /// The newest coupons on Stripe.
    ///
    /// Example: closewise billing coupons list --json
    List(StripeRead),
}

#[derive(Subcommand, Debug)]
pub enum PromoCodesCommand {
    /// Creates a promotion code for a coupon.
    ///
    /// Example: closewise billing promo-codes create LAUNCH20 --coupon 4fTq9Zr2 --max-redemptions 100
    Create(PromoCodeCreate),
    /// The newest promotion codes on Stripe.
    ///
    /// Example: closewise billing promo-codes list --active
    List(PromoCodeList),
    /// Turns a promotion code off: it can no longer be redeemed.
    ///
    /// Example: closewise billing promo-codes deactivate LAUNCH20 --reason "partner deal ended"
    Deactivate(PromoCodeDeactivate),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Duration {
    Once,
    Repeating,
    Forever,
}

#[derive(Args, Debug)]
pub struct CouponCreate {
    /// Percent off (0 < p ≤ 100); or --amount-off.
    #[arg(
        long,
        required_unless_present = "amount_off",
        conflicts_with = "amount_off"
    )]
    pub percent_off: Option<f64>,
    /// Amount off in the currency's minor units (cents), with --currency.
    #[arg(long, requires = "currency")]
    pub amount_off: Option<i64>,
    /// ISO 4217 code for --amount-off.
    #[arg(long)]
    pub currency: Option<String>,
    /// How long it applies to a subscription.
    #[arg(long, value_enum, default_value = "once")]
    pub duration: Duration,
    /// For --duration repeating: how many months.
    #[arg(long = "months")]
    pub duration_in_months: Option<i64>,
    /// At most this many redemptions in all.
    #[arg(long)]
    pub max_redemptions: Option<i64>,
    /// Redeemable until this time (Unix seconds).
    #[arg(long)]
    pub redeem_by: Option<i64>,
    /// Its id (default: Stripe's).
    #[arg(long)]
    pub id: Option<String>,
    /// A name customers see on invoices.
    #[arg(long)]
    pub name: Option<String>,
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub confirm: Confirm,
    #[command(flatten)]
    pub stripe: StripeArgs,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Args, Debug)]
pub struct PromoCodeCreate {
    /// The code customers type (letters, digits, - and _).
    pub code: String,
    /// The coupon's id.
    #[arg(long)]
    pub coupon: String,
    #[arg(long)]
    pub max_redemptions: Option<i64>,
    /// Redeemable until this time (Unix seconds).
    #[arg(long)]
    pub expires_at: Option<i64>,
    /// Only for customers who never paid before.
    #[arg(long)]
    pub first_time_only: bool,
    /// Only for orders of at least this many minor units (cents), with --minimum-currency.
    #[arg(long, requires = "minimum_currency")]
    pub minimum_amount: Option<i64>,
    #[arg(long)]
    pub minimum_currency: Option<String>,
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub confirm: Confirm,
    #[command(flatten)]
    pub stripe: StripeArgs,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Args, Debug)]
pub struct StripeRead {
    #[command(flatten)]
    pub stripe: StripeArgs,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Args, Debug)]
pub struct PromoCodeList {
    /// Only the active ones.
    #[arg(long)]
    pub active: bool,
    #[command(flatten)]
    pub stripe: StripeArgs,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Args, Debug)]
pub struct PromoCodeDeactivate {
    /// The code as customers type it, or its promo_… id.
    pub code: String,
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub confirm: Confirm,
    #[command(flatten)]
    pub stripe: StripeArgs,
}
