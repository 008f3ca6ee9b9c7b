//! Discounts: a coupon (through a promotion code or not) taken at checkout becomes a discount on
//! the subscription, and every invoice and preview of that subscription takes it off while it
//! lasts — `once` for the first invoice, `repeating` until `duration_in_months` have passed,
//! `forever` always. Like Stripe, a discount's amounts are kept per line and in total.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{add_months, new_id, Discount, InvoiceLine, Origin, Store, Subscription};
use crate::error::ApiError;
use crate::expand::Expand;

/// What a checkout session will apply: a coupon, and the promotion code it was named by.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SessionDiscount {
    pub coupon: String,
    pub promotion_code: Option<String>,
}

/// The discounts an invoice took, and how much each took off each line.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct InvoiceDiscounts {
    pub ids: Vec<String>,
    /// Line id → (discount id, amount).
    pub per_line: BTreeMap<String, Vec<(String, i64)>>,
}

impl InvoiceDiscounts {
    pub fn total(&self) -> i64 {
        self.per_line.values().flatten().map(|(_, a)| a).sum()
    }

    /// The amount each discount took off the whole invoice, in the order they apply.
    pub fn totals(&self) -> Vec<(String, i64)> {
        self.ids
            .iter()
            .map(|id| {
                let sum = self
                    .per_line
                    .values()
                    .flatten()
                    .filter(|(d, _)| d == id)
                    .map(|(_, a)| a)
                    .sum();
                (id.clone(), sum)
            })
            .collect()
    }

    pub fn render_line(&self, line_id: &str) -> Value {
        let amounts = self.per_line.get(line_id).map_or(&[][..], Vec::as_slice);
        Value::Array(
            amounts
                .iter()
                .map(|(d, a)| json!({ "amount": a, "discount": d }))
                .collect(),
        )
    }
}

impl Store {
    /// The amounts the subscription's discounts live at `at` take off `lines`.
    pub(crate) fn discounts_for(
        &self,
        sub: &Subscription,
        lines: &[InvoiceLine],
        at: i64,
    ) -> InvoiceDiscounts {
        let mut out = InvoiceDiscounts::default();
        for id in &sub.discounts {
            let Some(d) = self.discounts.get(id) else {
                continue;
            };
            if d.end.is_some_and(|end| end <= at) {
                continue;
            }
            let Some(coupon) = self.coupons.get(&d.coupon) else {
                continue;
            };
            out.ids.push(d.id.clone());
            let already = |line: &str| -> i64 {
                out.per_line
                    .get(line)
                    .map_or(0, |v| v.iter().map(|(_, a)| a).sum())
            };
            let amounts: Vec<(String, i64)> = if coupon.percent_off.is_some() {
                lines
                    .iter()
                    .map(|l| (l.id.clone(), coupon.discount_on(l.amount - already(&l.id))))
                    .collect()
            } else {
                // An amount off is shared by the lines in proportion to what they cost.
                let positive: Vec<(&InvoiceLine, i64)> = lines
                    .iter()
                    .map(|l| (l, l.amount - already(&l.id)))
                    .filter(|(_, a)| *a > 0)
                    .collect();
                let base: i64 = positive.iter().map(|(_, a)| a).sum();
                let off = coupon.discount_on(base);
                let mut left = off;
                positive
                    .iter()
                    .enumerate()
                    .map(|(i, (l, a))| {
                        let share = if i + 1 == positive.len() {
                            left
                        } else {
                            off * a / base
                        };
                        left -= share;
                        (l.id.clone(), share)
                    })
                    .collect()
            };
            for (line, amount) in amounts {
                out.per_line
                    .entry(line)
                    .or_default()
                    .push((d.id.clone(), amount));
            }
        }
        out
    }

    /// The discounts for a new invoice of `sub_id` at `now`: ended ones leave the subscription
    /// first, and a `once` discount leaves it after this invoice.
    pub(crate) fn take_discounts(
        &mut self,
        sub_id: &str,
        lines: &[InvoiceLine],
        now: i64,
    ) -> InvoiceDiscounts {
        let ended: Vec<String> = self.subscriptions[sub_id]
            .discounts
            .iter()
            .filter(|id| {
                self.discounts
                    .get(*id)
                    .is_none_or(|d| d.end.is_some_and(|end| end <= now))
            })
            .cloned()
            .collect();
        for id in &ended {
            self.remove_discount(sub_id, id, now);
        }
        let taken = self.discounts_for(&self.subscriptions[sub_id], lines, now);
        let once: Vec<String> = taken
            .ids
            .iter()
            .filter(|id| {
                self.discounts
                    .get(*id)
                    .and_then(|d| self.coupons.get(&d.coupon))
                    .is_some_and(|c| c.duration == "once")
            })
            .cloned()
            .collect();
        for id in &once {
            self.remove_discount(sub_id, id, now);
        }
        taken
    }

    fn remove_discount(&mut self, sub_id: &str, id: &str, now: i64) {
        let origin = Origin::default();
        let _ = self.update_subscription(sub_id, &origin, now, |s| s.discounts.retain(|d| d != id));
        if let Some(d) = self.discounts.get(id) {
            let json = self.render_discount(d, &Expand::none());
            self.emit("customer.discount.deleted", json, None, &origin, now);
        }
    }

    /// Applies the session's discount to the subscription it created: counts the redemption on
    /// the coupon and the promotion code and emits `customer.discount.created`.
    pub(crate) fn start_discount(
        &mut self,
        wanted: &SessionDiscount,
        session: &str,
        sub_id: &str,
        now: i64,
    ) -> Result<(), ApiError> {
        let coupon = self.coupon(&wanted.coupon, "discounts")?.clone();
        let customer = self.subscription(sub_id)?.customer.clone();
        let end = (coupon.duration == "repeating")
            .then(|| add_months(now, coupon.duration_in_months.unwrap_or(1).max(1) as u32));
        let discount = Discount {
            id: new_id("di"),
            coupon: coupon.id.clone(),
            promotion_code: wanted.promotion_code.clone(),
            customer,
            subscription: Some(sub_id.to_owned()),
            checkout_session: Some(session.to_owned()),
            invoice: None,
            start: now,
            end,
        };
        if let Some(c) = self.coupons.get_mut(&coupon.id) {
            c.times_redeemed += 1;
        }
        if let Some(p) = wanted
            .promotion_code
            .as_ref()
            .and_then(|id| self.promotion_codes.get_mut(id))
        {
            p.times_redeemed += 1;
        }
        let json = self.render_discount(&discount, &Expand::none());
        let id = discount.id.clone();
        self.discounts.insert(id.clone(), discount);
        if let Some(s) = self.subscriptions.get_mut(sub_id) {
            s.discounts.push(id);
        }
        self.emit(
            "customer.discount.created",
            json,
            None,
            &Origin::default(),
            now,
        );
        Ok(())
    }

    /// What the session's discount takes off its total (its lines at their prices).
    pub fn session_discount(&self, s: &super::CheckoutSession) -> i64 {
        self.session_line_discounts(s).iter().sum()
    }

    /// What the session's discount takes off each of its lines, as its first invoice will:
    /// `percent_off` per line, `amount_off` shared in proportion to what the lines cost.
    pub fn session_line_discounts(&self, s: &super::CheckoutSession) -> Vec<i64> {
        let amounts: Vec<i64> = s
            .line_items
            .iter()
            .map(|li| self.line_item_amount(li))
            .collect();
        let Some(coupon) = s
            .discounts
            .first()
            .and_then(|d| self.coupons.get(&d.coupon))
        else {
            return vec![0; amounts.len()];
        };
        if coupon.percent_off.is_some() {
            return amounts.iter().map(|a| coupon.discount_on(*a)).collect();
        }
        let base: i64 = amounts.iter().filter(|a| **a > 0).sum();
        let off = coupon.discount_on(base);
        let last = amounts.iter().rposition(|a| *a > 0);
        let mut left = off;
        amounts
            .iter()
            .enumerate()
            .map(|(i, a)| {
                if *a <= 0 {
                    return 0;
                }
                let share = if Some(i) == last {
                    left
                } else {
                    off * a / base
                };
                left -= share;
                share
            })
            .collect()
    }

    /// The discounts a checkout session shows (`discounts[]`).
    pub(crate) fn render_session_discounts(&self, s: &super::CheckoutSession) -> Value {
        Value::Array(
            s.discounts
                .iter()
                .map(|d| json!({ "coupon": d.coupon, "promotion_code": d.promotion_code }))
                .collect(),
        )
    }
}
