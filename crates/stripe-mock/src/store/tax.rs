//! Automatic tax (`automatic_tax[enabled]=true`), computed the way Stripe Tax treats a seller
//! registered where the vendored table (`data/tax_rates.csv`) has a rate: the standard VAT/GST rate
//! of the customer's country, exclusive of the price; the reverse charge (0, `reverse_charge`) for
//! a business with an `eu_vat` ID in an EU country other than the seller's; nothing
//! (`not_collecting`) where the table has no rate. Each line is taxed on its amount after
//! discounts and rounded half away from zero, and the invoice's `total_taxes` add the lines up
//! per rate.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{Company, Store};

/// The seller's country when none is configured: see the README (Ireland, an EU member state, so
/// the reverse charge applies to businesses in the other 26).
pub const DEFAULT_SELLER_COUNTRY: &str = "IE";

const TABLE: &str = include_str!("../../data/tax_rates.csv");

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct StandardRate {
    pub country: String,
    pub tax_type: String,
    pub display_name: String,
    /// Hundredths of a percent: 25.5 % is 2550.
    pub basis_points: i64,
}

impl StandardRate {
    pub fn percentage(&self) -> f64 {
        self.basis_points as f64 / 100.0
    }
}

/// The table, read once; a malformed row is a bug in the vendored file (a unit test reads it).
pub fn standard_rates() -> &'static [StandardRate] {
    static RATES: OnceLock<Vec<StandardRate>> = OnceLock::new();
    RATES.get_or_init(|| {
        TABLE
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| parse_row(l).unwrap_or_else(|| panic!("data/tax_rates.csv: bad row {l:?}")))
            .collect()
    })
}

fn parse_row(line: &str) -> Option<StandardRate> {
    let mut cols = line.split(',');
    let (country, tax_type, display_name, pct) =
        (cols.next()?, cols.next()?, cols.next()?, cols.next()?);
    if cols.next().is_some() || country.len() != 2 {
        return None;
    }
    let (whole, frac) = pct.split_once('.').unwrap_or((pct, ""));
    if frac.len() > 2 {
        return None;
    }
    let frac: i64 = format!("{frac:0<2}").parse().ok()?;
    Some(StandardRate {
        country: country.to_owned(),
        tax_type: tax_type.to_owned(),
        display_name: display_name.to_owned(),
        basis_points: whole.parse::<i64>().ok()? * 100 + frac,
    })
}

pub fn rate_of(country: &str) -> Option<&'static StandardRate> {
    standard_rates().iter().find(|r| r.country == country)
}

/// The EU's member states (ISO codes).
const EU: &[&str] = &[
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
];

/// `amount × basis_points / 10 000`, rounded half away from zero.
pub fn tax_on(amount: i64, basis_points: i64) -> i64 {
    let exact = i128::from(amount) * i128::from(basis_points);
    let rounded = (exact.abs() + 5_000) / 10_000;
    (rounded as i64) * exact.signum() as i64
}

/// How a customer is taxed: the rate (0 for the reverse charge or no rate) and Stripe's reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Treatment {
    pub country: String,
    pub basis_points: i64,
    pub reason: String,
}

impl Treatment {
    /// Where the customer is (`country`), whether it has an `eu_vat` ID, and the seller's country.
    pub fn of(country: &str, eu_vat: bool, seller: &str) -> Self {
        let country = country.to_uppercase();
        let (basis_points, reason) = match rate_of(&country) {
            None => (0, "not_collecting"),
            Some(_) if eu_vat && EU.contains(&country.as_str()) && country != seller => {
                (0, "reverse_charge")
            }
            Some(rate) => (rate.basis_points, "standard_rated"),
        };
        Treatment {
            country,
            basis_points,
            reason: reason.to_owned(),
        }
    }

    /// The tax rate Stripe would name for it (`txr_…`; not served by this mock).
    pub fn tax_rate_id(&self) -> String {
        format!("txr_{}_{}", self.country.to_lowercase(), self.reason)
    }

    /// The tax on one line's amount after discounts.
    pub fn line(&self, net: i64) -> LineTax {
        let collecting = self.reason != "not_collecting";
        LineTax {
            amount: tax_on(net, self.basis_points),
            taxable_amount: if collecting { net } else { 0 },
            treatment: self.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineTax {
    pub amount: i64,
    pub taxable_amount: i64,
    pub treatment: Treatment,
}

impl LineTax {
    fn render(&self, amount: i64, taxable_amount: i64) -> Value {
        json!({
            "amount": amount,
            "tax_behavior": "exclusive",
            "tax_rate_details": { "tax_rate": self.treatment.tax_rate_id() },
            "taxability_reason": self.treatment.reason,
            "taxable_amount": taxable_amount,
            "type": "tax_rate_details",
        })
    }
}

/// An invoice's automatic tax: off, waiting for an address, or the tax of each line.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct InvoiceTaxes {
    pub enabled: bool,
    /// Enabled but the customer has no country: Stripe's `requires_location_inputs`.
    #[serde(default)]
    pub missing_location: bool,
    /// Line id → its tax.
    #[serde(default)]
    pub per_line: BTreeMap<String, LineTax>,
}

impl InvoiceTaxes {
    pub fn total(&self) -> i64 {
        self.per_line.values().map(|t| t.amount).sum()
    }

    pub fn render_line(&self, line_id: &str) -> Value {
        Value::Array(
            self.per_line
                .get(line_id)
                .map(|t| t.render(t.amount, t.taxable_amount))
                .into_iter()
                .collect(),
        )
    }

    /// `total_taxes`: the lines added up per tax rate.
    pub fn render_totals(&self) -> Value {
        let mut by_rate: BTreeMap<String, (&LineTax, i64, i64)> = BTreeMap::new();
        for t in self.per_line.values() {
            let entry = by_rate
                .entry(t.treatment.tax_rate_id())
                .or_insert((t, 0, 0));
            entry.1 += t.amount;
            entry.2 += t.taxable_amount;
        }
        Value::Array(
            by_rate
                .values()
                .map(|(t, amount, taxable)| t.render(*amount, *taxable))
                .collect(),
        )
    }

    /// The invoice's (or session's) `automatic_tax`.
    pub fn render_automatic(&self) -> Value {
        automatic_tax(self.enabled, !self.missing_location)
    }

    /// Whether any line is reverse-charged (the documents say so).
    pub fn reverse_charge(&self) -> bool {
        self.per_line
            .values()
            .any(|t| t.treatment.reason == "reverse_charge")
    }
}

/// Stripe's `automatic_tax` hash of an invoice or a checkout session.
pub fn automatic_tax(enabled: bool, located: bool) -> Value {
    if !enabled {
        return json!({ "disabled_reason": null, "enabled": false, "liability": null, "provider": null, "status": null });
    }
    json!({
        "disabled_reason": null,
        "enabled": true,
        "liability": { "type": "self" },
        "provider": "stripe",
        "status": if located { "complete" } else { "requires_location_inputs" },
    })
}

impl Store {
    pub(crate) fn seller_country(&self) -> &str {
        if self.seller_country.is_empty() {
            DEFAULT_SELLER_COUNTRY
        } else {
            &self.seller_country
        }
    }

    /// How `customer` is taxed now (with what a checkout page typed, if any): `None` while its
    /// country is unknown.
    pub(crate) fn treatment(
        &self,
        customer: Option<&str>,
        typed: Option<&Company>,
    ) -> Option<Treatment> {
        let stored = customer.and_then(|c| self.customers.get(c));
        let country = typed
            .and_then(|c| c.address.as_ref())
            .or_else(|| stored.and_then(|c| c.address.as_ref()))
            .and_then(|a| a.country.clone())?;
        let typed_vat = typed
            .and_then(|c| c.tax_id.as_ref())
            .is_some_and(|(kind, _)| kind == "eu_vat");
        let stored_vat =
            customer.is_some_and(|c| self.tax_ids_of(c).iter().any(|t| t.kind == "eu_vat"));
        Some(Treatment::of(
            &country,
            typed_vat || stored_vat,
            self.seller_country(),
        ))
    }

    /// The automatic tax of lines `(id, amount after discounts)` for `customer`.
    pub(crate) fn taxes_for(
        &self,
        enabled: bool,
        customer: &str,
        lines: impl IntoIterator<Item = (String, i64)>,
    ) -> InvoiceTaxes {
        if !enabled {
            return InvoiceTaxes::default();
        }
        let Some(treatment) = self.treatment(Some(customer), None) else {
            return InvoiceTaxes {
                enabled,
                missing_location: true,
                per_line: BTreeMap::new(),
            };
        };
        InvoiceTaxes {
            enabled,
            missing_location: false,
            per_line: lines
                .into_iter()
                .map(|(id, net)| (id, treatment.line(net)))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_and_covers_the_countries_it_promises() {
        let rates = standard_rates();
        for country in EU.iter().chain(&["GB", "CH", "NO", "AU", "NZ", "CA"]) {
            assert!(rate_of(country).is_some(), "{country} has a rate");
        }
        assert_eq!(rates.len(), 33);
        assert_eq!(rate_of("FI").unwrap().basis_points, 2550);
        assert_eq!(rate_of("CH").unwrap().basis_points, 810);
        assert_eq!(rate_of("DE").unwrap().percentage(), 19.0);
        assert!(rate_of("US").is_none());
    }

    #[test]
    fn tax_rounds_half_away_from_zero() {
        assert_eq!(tax_on(6000, 1900), 1140);
        assert_eq!(tax_on(3998, 810), 324);
        assert_eq!(tax_on(25, 1000), 3);
        assert_eq!(tax_on(-25, 1000), -3);
        assert_eq!(tax_on(24, 1000), 2);
    }

    #[test]
    fn the_reverse_charge_is_for_eu_businesses_outside_the_sellers_country() {
        let fr = Treatment::of("FR", true, "IE");
        assert_eq!((fr.basis_points, fr.reason.as_str()), (0, "reverse_charge"));
        let ie = Treatment::of("IE", true, "IE");
        assert_eq!(
            (ie.basis_points, ie.reason.as_str()),
            (2300, "standard_rated")
        );
        let consumer = Treatment::of("FR", false, "IE");
        assert_eq!(consumer.basis_points, 2000);
        let gb = Treatment::of("GB", true, "IE");
        assert_eq!(
            (gb.basis_points, gb.reason.as_str()),
            (2000, "standard_rated")
        );
        let us = Treatment::of("US", false, "IE");
        assert_eq!(us.reason, "not_collecting");
        assert_eq!(us.line(6000).taxable_amount, 0);
    }
}
