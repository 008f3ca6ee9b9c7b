//! Item changes and their prorations, as Stripe's classic billing mode makes them: for each
//! changed item (quantity, price or both), a credit for the unused time as it was and a charge for
//! the remaining time as it will be, to the second, both pending until the next invoice
//! (`create_prorations`), invoiced at once (`always_invoice`) or not made (`none`). A new price of
//! another interval (monthly to yearly) resets the billing cycle to now and invoices at once: the
//! unused time is credited and the new period charged in full. Also the invoice preview, with or
//! without a change.

use serde_json::Value;

use super::{new_id, Invoice, InvoiceLine, Origin, Store, Subscription};
use crate::error::ApiError;
use crate::expand::Expand;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ProrationBehavior {
    #[default]
    CreateProrations,
    None,
    AlwaysInvoice,
}

impl ProrationBehavior {
    /// Stripe's values; absent means `create_prorations`.
    pub fn parse(raw: Option<&str>, param: &str) -> Result<Self, ApiError> {
        match raw {
            None | Some("create_prorations") => Ok(Self::CreateProrations),
            Some("none") => Ok(Self::None),
            Some("always_invoice") => Ok(Self::AlwaysInvoice),
            Some(other) => Err(ApiError::invalid_param(
                param,
                format!("Invalid {param}: must be one of create_prorations, none, or always_invoice (got `{other}`)."),
            )),
        }
    }
}

/// One subscription item's new quantity and/or price (what is absent stays as it is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuantityChange {
    pub item: String,
    pub quantity: Option<u64>,
    pub price: Option<String>,
    /// The parameter that named the item (for errors), e.g. `items[0][id]`.
    pub param: String,
}

impl QuantityChange {
    fn price_param(&self) -> String {
        format!("{}[price]", self.param.trim_end_matches("[id]"))
    }
}

/// A change to a subscription's quantities.
#[derive(Debug, Clone, Default)]
pub struct Change {
    pub items: Vec<QuantityChange>,
    pub behavior: ProrationBehavior,
    /// When the change takes effect for prorations; the mock clock's now if absent.
    pub proration_date: Option<i64>,
}

/// `amount × remaining / period`, rounded half away from zero (in integer arithmetic).
pub fn prorate(amount: i64, remaining: i64, period: i64) -> i64 {
    if period <= 0 {
        return 0;
    }
    let n = i128::from(amount) * i128::from(remaining);
    let p = i128::from(period);
    let q = (2 * n.abs() + p) / (2 * p);
    (if n < 0 { -q } else { q }) as i64
}

/// "23 Nov 2026", as Stripe writes dates in proration descriptions.
fn day(ts: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(ts) {
        Ok(dt) => {
            let month = dt.month().to_string();
            format!("{:02} {} {}", dt.day(), &month[..3], dt.year())
        }
        Err(_) => ts.to_string(),
    }
}

impl Store {
    /// Refuses a change Stripe would refuse; returns the proration date.
    fn check_change(&self, sub: &Subscription, change: &Change, now: i64) -> Result<i64, ApiError> {
        if matches!(sub.status.as_str(), "canceled" | "incomplete_expired") {
            return Err(ApiError::invalid_request(
                "A canceled subscription can only update its cancellation_details and metadata.",
            ));
        }
        for c in &change.items {
            if !sub.items.iter().any(|it| it.id == c.item) {
                return Err(ApiError::invalid_param(
                    &c.param,
                    format!(
                        "The subscription item {} does not belong to subscription {}.",
                        c.item, sub.id
                    ),
                ));
            }
            if let Some(id) = &c.price {
                let param = c.price_param();
                let price = self
                    .prices
                    .get(id)
                    .ok_or_else(|| ApiError::no_such("price", id, &param).bad_request())?;
                if price.recurring.is_none() {
                    return Err(ApiError::invalid_param(&param, "The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`."));
                }
                if !price.active {
                    return Err(ApiError::invalid_param(
                        &param,
                        "The price specified is inactive. This field only accepts active prices.",
                    ));
                }
                if price.currency != sub.currency {
                    return Err(ApiError::invalid_param(&param, format!("The price specified has currency `{}`, but the subscription is in `{}`. All prices on a subscription must share one currency.", price.currency, sub.currency)));
                }
            }
        }
        let at = change.proration_date.unwrap_or(now);
        if at < sub.current_period_start || at > sub.current_period_end {
            return Err(ApiError::invalid_param(
                "proration_date",
                "The proration_date must be within the subscription's current billing period.",
            ));
        }
        Ok(at)
    }

    /// Whether `change` gives an item a price of another interval: Stripe then resets the billing
    /// cycle to the change and invoices at once.
    fn resets_cycle(&self, sub: &Subscription, change: &Change) -> bool {
        let interval = |price: &str| {
            self.prices
                .get(price)
                .and_then(|p| p.recurring.as_ref())
                .map(|r| (r.interval.clone(), r.interval_count))
        };
        change.items.iter().any(|c| {
            let (Some(new), Some(item)) = (&c.price, sub.items.iter().find(|it| it.id == c.item))
            else {
                return false;
            };
            interval(new) != interval(&item.price)
        })
    }

    /// The proration lines of `change` at `at` (none for `none` or an unchanged item): the unused
    /// time as the item was, and, when the cycle goes on, the remaining time as it will be.
    fn proration_lines(&self, sub: &Subscription, change: &Change, at: i64) -> Vec<InvoiceLine> {
        if change.behavior == ProrationBehavior::None {
            return Vec::new();
        }
        let resets = self.resets_cycle(sub, change);
        let (start, end) = (sub.current_period_start, sub.current_period_end);
        let mut lines = Vec::new();
        for c in &change.items {
            let Some(item) = sub.items.iter().find(|it| it.id == c.item) else {
                continue;
            };
            let quantity = c.quantity.unwrap_or(item.quantity);
            let price = c.price.clone().unwrap_or_else(|| item.price.clone());
            if item.quantity == quantity && item.price == price {
                continue;
            }
            let line = |price: &str, quantity: u64, sign: i64, what: &str| {
                let known = self.prices.get(price);
                let unit = known.map_or(0, |p| p.unit_amount);
                let name = known
                    .and_then(|p| self.products.get(&p.product))
                    .map_or_else(|| price.to_owned(), |p| p.name.clone());
                let label = if quantity == 1 {
                    name
                } else {
                    format!("{quantity} × {name}")
                };
                InvoiceLine {
                    id: new_id("ii"),
                    price: price.to_owned(),
                    quantity,
                    amount: sign * prorate(unit * quantity as i64, end - at, end - start),
                    description: Some(format!("{what} time on {label} after {}", day(at))),
                    proration: true,
                    period: Some((at, end)),
                    subscription_item: Some(item.id.clone()),
                }
            };
            lines.push(line(&item.price, item.quantity, -1, "Unused"));
            if !resets {
                lines.push(line(&price, quantity, 1, "Remaining"));
            }
        }
        lines
    }

    /// The subscription with `change`'s quantities and prices, and its new period from `now`
    /// when the change resets the cycle.
    fn changed(&self, sub: &Subscription, change: &Change, now: i64) -> Subscription {
        let resets = self.resets_cycle(sub, change);
        let mut sub = sub.clone();
        for c in &change.items {
            if let Some(item) = sub.items.iter_mut().find(|it| it.id == c.item) {
                if let Some(q) = c.quantity {
                    item.quantity = q;
                }
                if let Some(p) = &c.price {
                    item.price = p.clone();
                }
            }
        }
        if resets {
            let price = sub
                .items
                .first()
                .map(|i| i.price.clone())
                .unwrap_or_default();
            sub.current_period_start = now;
            sub.current_period_end = self.period_end(&price, now);
            sub.billing_cycle_anchor = now;
        }
        sub
    }

    /// Applies `change`: new quantities, prorations pending (or invoiced at once), then
    /// `customer.subscription.updated` with the old items in `previous_attributes`.
    pub fn change_quantities(
        &mut self,
        sub_id: &str,
        change: &Change,
        origin: &Origin,
        now: i64,
    ) -> Result<(), ApiError> {
        let sub = self.subscription(sub_id)?.clone();
        let at = self.check_change(&sub, change, now)?;
        let prorations = self.proration_lines(&sub, change, at);
        let resets = self.resets_cycle(&sub, change);
        let before = self.render_subscription(&sub, &Expand::none());
        let mut changed = self.changed(&sub, change, now);
        changed.pending_invoice_items.extend(prorations);
        self.subscriptions.insert(sub_id.to_owned(), changed);
        let stored = &self.subscriptions[sub_id];
        let mut invoice_event = None;
        if resets
            || (change.behavior == ProrationBehavior::AlwaysInvoice
                && !stored.pending_invoice_items.is_empty())
        {
            let fails = stored
                .default_payment_method
                .as_ref()
                .and_then(|pm| self.payment_methods.get(pm))
                .is_some_and(|pm| pm.fails_charges);
            let invoice = self.invoice_with(sub_id, "subscription_update", !fails, now, resets);
            let stored = self.subscriptions.get_mut(sub_id).expect("checked above");
            stored.latest_invoice = Some(invoice.clone());
            if fails {
                stored.status = "past_due".to_owned();
            }
            let kind = if fails {
                "invoice.payment_failed"
            } else {
                "invoice.paid"
            };
            invoice_event = Some((kind, invoice));
        }
        self.emit_subscription_updated(sub_id, &before, origin, now);
        if let Some((kind, invoice)) = invoice_event {
            let json = self.render_invoice(&self.invoices[&invoice], &Expand::none());
            self.emit(kind, json, None, origin, now);
        }
        Ok(())
    }

    /// What the subscription's next invoice will be (Stripe's invoice preview), as of `now`, with
    /// `change` applied if given; nothing is stored. With `always_invoice` that is the invoice the
    /// change would create at once (its prorations); otherwise the renewal: pending prorations
    /// (and the change's), then the items for the next period at their (new) quantities.
    pub fn preview_invoice(
        &self,
        sub_id: &str,
        change: Option<&Change>,
        automatic_tax: Option<bool>,
        now: i64,
    ) -> Result<Invoice, ApiError> {
        let mut sub = self.subscription(sub_id)?.clone();
        let mut lines = std::mem::take(&mut sub.pending_invoice_items);
        let mut behavior = ProrationBehavior::CreateProrations;
        let mut resets = false;
        if let Some(change) = change {
            let at = self.check_change(&sub, change, now)?;
            lines.extend(self.proration_lines(&sub, change, at));
            behavior = change.behavior;
            resets = self.resets_cycle(&sub, change);
            sub = self.changed(&sub, change, now);
        }
        let (created, reason, period) = if resets {
            let period = (sub.current_period_start, sub.current_period_end);
            lines.extend(self.invoice_lines(&sub, period));
            (now, "subscription_update", period)
        } else if behavior == ProrationBehavior::AlwaysInvoice {
            (now, "subscription_update", (now, now))
        } else {
            let renews = matches!(sub.status.as_str(), "active" | "trialing" | "past_due")
                && !sub.cancel_at_period_end;
            if !renews {
                return Err(ApiError::no_upcoming_invoice(&sub.customer));
            }
            let price = sub
                .items
                .first()
                .map(|i| i.price.clone())
                .unwrap_or_default();
            let next = (
                sub.current_period_end,
                self.period_end(&price, sub.current_period_end),
            );
            lines.extend(self.invoice_lines(&sub, next));
            (sub.current_period_end, "upcoming", next)
        };
        let discounts = self.discounts_for(&sub, &lines, created);
        let taxes = self.invoice_taxes(
            automatic_tax.unwrap_or(sub.automatic_tax),
            &sub.customer,
            &lines,
            &discounts,
        );
        let total = lines.iter().map(|l| l.amount).sum::<i64>() - discounts.total() + taxes.total();
        Ok(Invoice {
            id: format!("upcoming_in_{}", sub.id.trim_start_matches("sub_")),
            number: String::new(),
            created,
            customer: sub.customer.clone(),
            subscription: Some(sub.id.clone()),
            status: "draft".to_owned(),
            billing_reason: reason.to_owned(),
            currency: sub.currency.clone(),
            total,
            starting_balance: self.credit_of(&sub.customer),
            amount_paid: 0,
            attempt_count: 0,
            period_start: period.0,
            period_end: period.1,
            paid_at: None,
            payment_method: sub.default_payment_method.clone(),
            lines,
            billed_to: None,
            discounts,
            taxes,
            next_payment_attempt: None,
            due_date: None,
            overdue: false,
        })
    }

    /// The subscription holding item `id`.
    pub fn subscription_of_item(&self, id: &str) -> Result<&Subscription, ApiError> {
        self.subscriptions
            .values()
            .find(|s| s.items.iter().any(|it| it.id == id))
            .ok_or_else(|| ApiError::no_such("subscription_item", id, "id"))
    }

    pub fn render_item_by_id(&self, id: &str) -> Result<Value, ApiError> {
        let sub = self.subscription_of_item(id)?;
        let item = sub
            .items
            .iter()
            .find(|it| it.id == id)
            .expect("found above");
        Ok(self.render_subscription_item(sub, item))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prorations_round_half_away_from_zero() {
        assert_eq!(prorate(6000, 1, 2), 3000);
        assert_eq!(prorate(1, 1, 2), 1);
        assert_eq!(prorate(-1, 1, 2), -1);
        assert_eq!(prorate(2000, 1, 3), 667);
        assert_eq!(prorate(2000, 0, 30), 0);
        assert_eq!(prorate(2000, 5, 0), 0);
    }

    #[test]
    fn dates_are_written_like_stripe() {
        // 2026-11-23T15:00:00Z
        assert_eq!(day(1_795_446_000), "23 Nov 2026");
    }
}
