//! The one shape every list endpoint answers with: the caller's filter, Stripe's order (newest
//! first), the `starting_after` / `ending_before` / `limit` cursor, and
//! `{"object": "list", "data", "has_more", "url"}`. Only the page is rendered, with the `data.…`
//! expansions.

use std::cmp::Ordering;

use axum::Json;
use serde_json::{json, Value};

use super::params::Params;
use super::ApiResult;
use crate::error::ApiError;
use crate::expand::Expand;
use crate::store::{
    CheckoutSession, Coupon, Customer, Event, Invoice, InvoiceLine, LineItem, PortalConfiguration,
    Price, Product, PromotionCode, Subscription, SubscriptionItem, TaxId,
};

const DEFAULT_LIMIT: i64 = 10;
const MAX_LIMIT: i64 = 100;

/// How a listed object takes part in a list.
pub(super) trait Listed {
    /// Stripe's noun in `No such <noun>: '<id>'` when a cursor names nothing in the list.
    const NOUN: &'static str;
    fn id(&self) -> &str;
    /// `Some(created)` sorts newest first (then by id, so pages are stable); `None` keeps the
    /// order the items come in (events, which share seconds, and line items).
    fn created(&self) -> Option<i64>;
}

/// Answers a list endpoint: keeps the items `keep` accepts, sorts them, cuts the page the cursor
/// asks for and renders it with the request's `data.…` expansions.
pub(super) fn page<'a, T: Listed + 'a>(
    p: &Params,
    url: &str,
    items: impl IntoIterator<Item = &'a T>,
    keep: impl Fn(&T) -> bool,
    render: impl Fn(&T, &Expand) -> Value,
) -> ApiResult {
    let limit = limit(p)?;
    let mut items: Vec<&T> = items.into_iter().filter(|t| keep(t)).collect();
    items.sort_by(|a, b| match (a.created(), b.created()) {
        (Some(x), Some(y)) => y.cmp(&x).then_with(|| b.id().cmp(a.id())),
        _ => Ordering::Equal,
    });
    let position = |cursor: &str, param: &str| {
        items
            .iter()
            .position(|t| t.id() == cursor)
            .ok_or_else(|| ApiError::no_such(T::NOUN, cursor, param))
    };
    let window = if let Some(after) = p.str("starting_after")? {
        let start = position(&after, "starting_after")? + 1;
        start..items.len()
    } else if let Some(before) = p.str("ending_before")? {
        let end = position(&before, "ending_before")?;
        end.saturating_sub(limit)..end
    } else {
        0..items.len()
    };
    let has_more = window.len() > limit;
    let exp = p.expand.child("data").unwrap_or_default();
    let data: Vec<Value> = items[window]
        .iter()
        .take(limit)
        .map(|t| render(t, &exp))
        .collect();
    Ok(Json(
        json!({ "object": "list", "data": data, "has_more": has_more, "url": url }),
    ))
}

fn limit(p: &Params) -> Result<usize, ApiError> {
    let limit = p.int("limit")?.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::invalid_param(
            "limit",
            "This value must be greater than or equal to 1 and less than or equal to 100.",
        ));
    }
    Ok(limit as usize)
}

macro_rules! listed_by_creation {
    ($($ty:ty => $noun:literal),* $(,)?) => {$(
        impl Listed for $ty {
            const NOUN: &'static str = $noun;
            fn id(&self) -> &str {
                &self.id
            }
            fn created(&self) -> Option<i64> {
                Some(self.created)
            }
        }
    )*};
}

listed_by_creation! {
    Customer => "customer",
    Product => "product",
    Price => "price",
    CheckoutSession => "checkout.session",
    Subscription => "subscription",
    Invoice => "invoice",
    PortalConfiguration => "billing_portal.configuration",
    TaxId => "tax_id",
    Coupon => "coupon",
    PromotionCode => "promotion_code",
}

macro_rules! listed_as_kept {
    ($($ty:ty => $noun:literal),* $(,)?) => {$(
        impl Listed for $ty {
            const NOUN: &'static str = $noun;
            fn id(&self) -> &str {
                &self.id
            }
            fn created(&self) -> Option<i64> {
                None
            }
        }
    )*};
}

// Events share seconds, so their order is the order they were kept in; lines are in order.
listed_as_kept! {
    Event => "event",
    LineItem => "line item",
    InvoiceLine => "line item",
    SubscriptionItem => "subscription_item",
}
