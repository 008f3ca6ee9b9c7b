//! `billing coupons create|list` and `billing promo-codes create|list|deactivate`: core's billing
//! service talks to Stripe and audits; this parses and renders.

use closewise_core::billing::{
    CouponView, CouponsError, NewCoupon, NewPromotionCode, PromotionCodeView, StripeFailure,
};

use crate::ctx::Ctx;
use crate::opt::billing::{
    CouponCreate, Duration, PromoCodeCreate, PromoCodeDeactivate, PromoCodeList,
};
use crate::opt::{BillingCommand, CouponsCommand, DunningCommand, PromoCodesCommand, StripeArgs};
use crate::print::{self, table};

pub fn stripe_args(command: &BillingCommand) -> Option<&StripeArgs> {
    match command {
        BillingCommand::Coupons(CouponsCommand::Create(a)) => Some(&a.stripe),
        BillingCommand::Coupons(CouponsCommand::List(a)) => Some(&a.stripe),
        BillingCommand::PromoCodes(PromoCodesCommand::Create(a)) => Some(&a.stripe),
        BillingCommand::PromoCodes(PromoCodesCommand::List(a)) => Some(&a.stripe),
        BillingCommand::PromoCodes(PromoCodesCommand::Deactivate(a)) => Some(&a.stripe),
        BillingCommand::Dunning(_) => None,
    }
}

pub async fn run(ctx: &Ctx, command: BillingCommand) -> anyhow::Result<()> {
    match command {
        BillingCommand::Coupons(CouponsCommand::Create(a)) => create_coupon(ctx, a).await,
        BillingCommand::Coupons(CouponsCommand::List(a)) => {
            let coupons = ctx.billing.coupons(&ctx.reader()).await.map_err(explain)?;
            if a.output.json {
                return print::json(&coupons);
            }
            print_coupons(&coupons);
            Ok(())
        }
        BillingCommand::PromoCodes(PromoCodesCommand::Create(a)) => create_code(ctx, a).await,
        BillingCommand::PromoCodes(PromoCodesCommand::List(a)) => list_codes(ctx, a).await,
        BillingCommand::PromoCodes(PromoCodesCommand::Deactivate(a)) => deactivate(ctx, a).await,
        BillingCommand::Dunning(DunningCommand::List(output)) => {
            crate::dunning::list(ctx, output).await
        }
    }
}

/// Stripe's refusal is the operator's to read (it names the parameter); the rest is worded.
fn explain(e: CouponsError) -> anyhow::Error {
    match e {
        CouponsError::Stripe(StripeFailure::Refused { message, .. }) => {
            crate::UsageError(format!("Stripe refused: {message}")).into()
        }
        CouponsError::NoSuchCode(code) => {
            crate::UsageError(format!("there is no active promotion code {code}")).into()
        }
        other => other.into(),
    }
}

async fn create_coupon(ctx: &Ctx, a: CouponCreate) -> anyhow::Result<()> {
    let duration = match a.duration {
        Duration::Once => "once",
        Duration::Repeating => "repeating",
        Duration::Forever => "forever",
    };
    let coupon = NewCoupon {
        id: a.id,
        name: a.name,
        percent_off: a.percent_off,
        amount_off: a.amount_off,
        currency: a.currency.map(|c| c.to_lowercase()),
        duration: duration.to_owned(),
        duration_in_months: a.duration_in_months,
        max_redemptions: a.max_redemptions,
        redeem_by: a.redeem_by,
    };
    ctx.confirm(a.confirm.yes, "Create this coupon on Stripe?")?;
    let operator = ctx.operator(&a.reason)?;
    let made = ctx
        .billing
        .create_coupon(&operator, &coupon)
        .await
        .map_err(explain)?;
    if a.output.json {
        return print::json(&made);
    }
    println!("Coupon {} created: {}.", made.id, off(&made));
    Ok(())
}

async fn create_code(ctx: &Ctx, a: PromoCodeCreate) -> anyhow::Result<()> {
    let code = NewPromotionCode {
        coupon: a.coupon,
        code: a.code,
        max_redemptions: a.max_redemptions,
        expires_at: a.expires_at,
        first_time_transaction: a.first_time_only,
        minimum_amount: a
            .minimum_amount
            .zip(a.minimum_currency.map(|c| c.to_lowercase())),
    };
    ctx.confirm(
        a.confirm.yes,
        &format!("Create promotion code {} on Stripe?", code.code),
    )?;
    let operator = ctx.operator(&a.reason)?;
    let made = ctx
        .billing
        .create_promotion_code(&operator, &code)
        .await
        .map_err(explain)?;
    if a.output.json {
        return print::json(&made);
    }
    println!(
        "Promotion code {} ({}) created for coupon {}.",
        made.code, made.id, made.coupon
    );
    Ok(())
}

async fn list_codes(ctx: &Ctx, a: PromoCodeList) -> anyhow::Result<()> {
    let codes = ctx
        .billing
        .promotion_codes(&ctx.reader(), a.active)
        .await
        .map_err(explain)?;
    if a.output.json {
        return print::json(&codes);
    }
    print_codes(&codes);
    Ok(())
}

async fn deactivate(ctx: &Ctx, a: PromoCodeDeactivate) -> anyhow::Result<()> {
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Deactivate promotion code {}? It can no longer be redeemed.",
            a.code
        ),
    )?;
    let operator = ctx.operator(&a.reason)?;
    let done = ctx
        .billing
        .deactivate_promotion_code(&operator, &a.code)
        .await
        .map_err(explain)?;
    println!("Promotion code {} ({}) deactivated.", done.code, done.id);
    Ok(())
}

fn off(c: &CouponView) -> String {
    let amount = match (c.percent_off, c.amount_off) {
        (Some(p), _) => format!("{p}% off"),
        (None, Some(a)) => format!(
            "{}.{:02} {} off",
            a / 100,
            a % 100,
            c.currency.as_deref().unwrap_or("").to_uppercase()
        ),
        (None, None) => "nothing off".to_owned(),
    };
    match (c.duration.as_str(), c.duration_in_months) {
        ("repeating", Some(m)) => format!("{amount} for {m} month(s)"),
        (d, _) => format!("{amount} {d}"),
    }
}

fn opt(n: Option<i64>) -> String {
    n.map_or_else(|| "-".to_owned(), |n| n.to_string())
}

fn print_coupons(coupons: &[CouponView]) {
    if coupons.is_empty() {
        println!("No coupons.");
        return;
    }
    let rows: Vec<Vec<String>> = coupons
        .iter()
        .map(|c| {
            vec![
                c.id.clone(),
                c.name.clone().unwrap_or_else(|| "-".into()),
                off(c),
                format!("{}/{}", c.times_redeemed, opt(c.max_redemptions)),
                if c.valid { "yes" } else { "no" }.to_owned(),
            ]
        })
        .collect();
    println!(
        "{}",
        table(&["ID", "NAME", "OFF", "REDEEMED", "VALID"], &rows)
    );
}

fn print_codes(codes: &[PromotionCodeView]) {
    if codes.is_empty() {
        println!("No promotion codes.");
        return;
    }
    let rows: Vec<Vec<String>> = codes
        .iter()
        .map(|p| {
            vec![
                p.code.clone(),
                p.id.clone(),
                p.coupon.clone(),
                if p.active { "yes" } else { "no" }.to_owned(),
                format!("{}/{}", p.times_redeemed, opt(p.max_redemptions)),
            ]
        })
        .collect();
    println!(
        "{}",
        table(&["CODE", "ID", "COUPON", "ACTIVE", "REDEEMED"], &rows)
    );
}
