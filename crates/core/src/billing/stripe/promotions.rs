//! Coupons and promotion codes on Stripe: the checkout looks a typed code up, operators create
//! and list coupons and codes. async-stripe's typed requests for these live in a crate we do not
//! build, so these are plain requests read back as JSON; the shapes are Stripe's.

use closewise_domain::promotion::PromotionFacts;
use serde::Serialize;
use serde_json::Value;
use stripe_checkout::checkout_session::{CreateCheckoutSession, CreateCheckoutSessionDiscounts};
use stripe_client_core::{RequestBuilder, StripeMethod};

use super::{StripeClient, StripeFailure};

/// What a checkout offers: the field for a code on Stripe's page, or the code given up front.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// `allow_promotion_codes=true`: the buyer may type one on Stripe's page.
    Allow,
    /// `discounts[0][promotion_code]`: the promotion code's id (`promo_…`).
    Code(String),
}

impl Promotion {
    /// The session with the promotion set: Stripe takes one of the two, never both.
    pub(crate) fn apply(&self, session: CreateCheckoutSession) -> CreateCheckoutSession {
        match self {
            Promotion::Allow => session.allow_promotion_codes(true),
            Promotion::Code(id) => session.discounts(vec![CreateCheckoutSessionDiscounts {
                coupon: None,
                promotion_code: Some(id.clone()),
            }]),
        }
    }
}

/// A promotion code Stripe knows, with what the rules need of it and its coupon.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundCode {
    pub id: String,
    pub facts: PromotionFacts,
}

/// A new coupon as an operator describes it (Stripe's parameters).
#[derive(Clone, Debug, Default, Serialize)]
pub struct NewCoupon {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent_off: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount_off: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// `once`, `repeating` or `forever`.
    pub duration: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_in_months: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_redemptions: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redeem_by: Option<i64>,
}

/// A new promotion code for a coupon.
#[derive(Clone, Debug, Default)]
pub struct NewPromotionCode {
    pub coupon: String,
    pub code: String,
    pub max_redemptions: Option<i64>,
    pub expires_at: Option<i64>,
    pub first_time_transaction: bool,
    /// (amount in minor units, currency).
    pub minimum_amount: Option<(i64, String)>,
}

#[derive(Serialize)]
struct Lookup<'a> {
    code: &'a str,
    active: bool,
    limit: u8,
    expand: [&'static str; 1],
}

#[derive(Serialize)]
struct Page {
    limit: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    active: Option<bool>,
}

impl StripeClient {
    /// One plain request, read back as JSON.
    async fn json(
        &self,
        what: &'static str,
        request: RequestBuilder,
    ) -> Result<Value, StripeFailure> {
        let value = self
            .call(
                what,
                request
                    .customize::<miniserde::json::Value>()
                    .send(&self.client),
            )
            .await?;
        serde_json::from_str(&miniserde::json::to_string(&value))
            .map_err(|e| StripeFailure::Unavailable(format!("{what}: {e}")))
    }

    /// The active promotion code by that name (Stripe matches codes case-insensitively), with
    /// its coupon; `None` when there is none.
    pub async fn promotion_code(&self, code: &str) -> Result<Option<FoundCode>, StripeFailure> {
        let query = Lookup {
            code,
            active: true,
            limit: 1,
            expand: ["data.promotion.coupon"],
        };
        let list = self
            .json(
                "look up promotion code",
                RequestBuilder::new(StripeMethod::Get, "/promotion_codes").query(&query),
            )
            .await?;
        Ok(list["data"].get(0).map(found))
    }

    pub async fn create_coupon(&self, coupon: &NewCoupon) -> Result<Value, StripeFailure> {
        self.json(
            "create coupon",
            RequestBuilder::new(StripeMethod::Post, "/coupons").form(coupon),
        )
        .await
    }

    /// The newest coupons (up to 100).
    pub async fn coupons(&self) -> Result<Vec<Value>, StripeFailure> {
        let page = Page {
            limit: 100,
            active: None,
        };
        let list = self
            .json(
                "list coupons",
                RequestBuilder::new(StripeMethod::Get, "/coupons").query(&page),
            )
            .await?;
        Ok(data(list))
    }

    pub async fn create_promotion_code(
        &self,
        new: &NewPromotionCode,
    ) -> Result<Value, StripeFailure> {
        let mut form: Vec<(&str, String)> = vec![
            ("promotion[type]", "coupon".to_owned()),
            ("promotion[coupon]", new.coupon.clone()),
            ("code", new.code.clone()),
        ];
        if let Some(m) = new.max_redemptions {
            form.push(("max_redemptions", m.to_string()));
        }
        if let Some(t) = new.expires_at {
            form.push(("expires_at", t.to_string()));
        }
        if new.first_time_transaction {
            form.push(("restrictions[first_time_transaction]", "true".to_owned()));
        }
        if let Some((amount, currency)) = &new.minimum_amount {
            form.push(("restrictions[minimum_amount]", amount.to_string()));
            form.push(("restrictions[minimum_amount_currency]", currency.clone()));
        }
        let mut request = RequestBuilder::new(StripeMethod::Post, "/promotion_codes");
        request.body = Some(
            url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(form)
                .finish(),
        );
        self.json("create promotion code", request).await
    }

    /// The newest promotion codes (up to 100), only the active ones if asked.
    pub async fn promotion_codes(&self, active: Option<bool>) -> Result<Vec<Value>, StripeFailure> {
        let page = Page { limit: 100, active };
        let list = self
            .json(
                "list promotion codes",
                RequestBuilder::new(StripeMethod::Get, "/promotion_codes").query(&page),
            )
            .await?;
        Ok(data(list))
    }

    /// Turns the promotion code `id` off; it can no longer be redeemed.
    pub async fn deactivate_promotion_code(&self, id: &str) -> Result<Value, StripeFailure> {
        let mut request = RequestBuilder::new(StripeMethod::Post, format!("/promotion_codes/{id}"));
        request.body = Some("active=false".to_owned());
        self.json("deactivate promotion code", request).await
    }
}

fn data(list: Value) -> Vec<Value> {
    match list {
        Value::Object(mut m) => match m.remove("data") {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The facts of a listed promotion code whose coupon is expanded.
fn found(code: &Value) -> FoundCode {
    let coupon = &code["promotion"]["coupon"];
    let restrictions = &code["restrictions"];
    FoundCode {
        id: code["id"].as_str().unwrap_or_default().to_owned(),
        facts: PromotionFacts {
            active: code["active"].as_bool().unwrap_or(false),
            expires_at: code["expires_at"].as_i64(),
            max_redemptions: code["max_redemptions"].as_i64(),
            times_redeemed: code["times_redeemed"].as_i64().unwrap_or(0),
            // An unexpanded coupon (a string) tells nothing against it; Stripe checks it anyway.
            coupon_valid: coupon["valid"].as_bool().unwrap_or(true),
            coupon_redeem_by: coupon["redeem_by"].as_i64(),
            first_time_transaction: restrictions["first_time_transaction"]
                .as_bool()
                .unwrap_or(false),
            minimum_amount: restrictions["minimum_amount"].as_i64(),
        },
    }
}
