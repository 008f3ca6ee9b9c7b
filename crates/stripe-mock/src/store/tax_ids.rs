//! Customer tax IDs (`txi_…`): each type's shape checked as Stripe does on create, the value
//! stored in Stripe's normalised form, and the country the type implies.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{new_id, Store};
use crate::error::ApiError;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaxId {
    pub id: String,
    pub created: i64,
    pub customer: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub value: String,
    pub country: String,
}

/// The EU's VAT prefixes (Greece's is EL) and the ISO country each stands for.
const EU_PREFIXES: &[(&str, &str)] = &[
    ("AT", "AT"),
    ("BE", "BE"),
    ("BG", "BG"),
    ("CY", "CY"),
    ("CZ", "CZ"),
    ("DE", "DE"),
    ("DK", "DK"),
    ("EE", "EE"),
    ("EL", "GR"),
    ("ES", "ES"),
    ("FI", "FI"),
    ("FR", "FR"),
    ("HR", "HR"),
    ("HU", "HU"),
    ("IE", "IE"),
    ("IT", "IT"),
    ("LT", "LT"),
    ("LU", "LU"),
    ("LV", "LV"),
    ("MT", "MT"),
    ("NL", "NL"),
    ("PL", "PL"),
    ("PT", "PT"),
    ("RO", "RO"),
    ("SE", "SE"),
    ("SI", "SI"),
    ("SK", "SK"),
    ("XI", "GB"),
];

/// The types this mock knows, with the country each implies (`eu_vat` takes its prefix's).
pub const TAX_ID_TYPES: &[(&str, &str)] = &[
    ("eu_vat", ""),
    ("gb_vat", "GB"),
    ("ch_vat", "CH"),
    ("no_vat", "NO"),
    ("au_abn", "AU"),
    ("nz_gst", "NZ"),
    ("ca_bn", "CA"),
    ("us_ein", "US"),
];

fn digits(s: &str, n: usize) -> bool {
    s.len() == n && s.bytes().all(|b| b.is_ascii_digit())
}

/// `(stored value, country)` for a well-formed `value` of `kind`, `None` for a malformed one.
/// Spaces are dropped and letters upper-cased first, as Stripe does.
pub fn normalise(kind: &str, value: &str) -> Option<(String, String)> {
    let compact: String = value
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    let country = |c: &str| Some((compact.clone(), c.to_owned()));
    match kind {
        "eu_vat" => {
            let (prefix, rest) = compact.split_at_checked(2)?;
            let (_, iso) = EU_PREFIXES.iter().find(|(p, _)| *p == prefix)?;
            let ok = (2..=12).contains(&rest.len())
                && rest.bytes().all(|b| b.is_ascii_alphanumeric())
                && rest.bytes().any(|b| b.is_ascii_digit());
            ok.then(|| (compact.clone(), (*iso).to_owned()))
        }
        "gb_vat" => {
            let rest = compact.strip_prefix("GB")?;
            let ok = digits(rest, 9) || digits(rest, 12);
            ok.then(|| (compact.clone(), "GB".to_owned()))
        }
        "ch_vat" => {
            // CHE-123.456.789 MWST (or TVA, IVA): the suffix says which language.
            let trimmed = value.trim().to_uppercase();
            let (number, suffix) = trimmed.rsplit_once(' ')?;
            let body = number.strip_prefix("CHE-")?;
            let groups: Vec<&str> = body.split('.').collect();
            let ok = matches!(suffix, "MWST" | "TVA" | "IVA")
                && groups.len() == 3
                && groups.iter().all(|g| digits(g, 3));
            ok.then(|| (format!("CHE-{body} {suffix}"), "CH".to_owned()))
        }
        "no_vat" => {
            let rest = compact.strip_suffix("MVA")?;
            digits(rest, 9).then(|| country("NO"))?
        }
        "au_abn" => digits(&compact, 11).then(|| country("AU"))?,
        "nz_gst" => (digits(&compact, 8) || digits(&compact, 9)).then(|| country("NZ"))?,
        "ca_bn" => digits(&compact, 9).then(|| country("CA"))?,
        "us_ein" => {
            let plain = compact.replacen('-', "", 1);
            let hyphen_ok = !compact.contains('-') || compact.find('-') == Some(2);
            (digits(&plain, 9) && hyphen_ok).then(|| (compact.clone(), "US".to_owned()))
        }
        _ => None,
    }
}

impl Store {
    pub fn render_tax_id(&self, t: &TaxId) -> Value {
        json!({
            "id": t.id,
            "object": "tax_id",
            "country": t.country,
            "created": t.created,
            "customer": t.customer,
            "livemode": false,
            "owner": { "type": "customer", "customer": t.customer, "account": null, "application": null },
            "type": t.kind,
            "value": t.value,
            "verification": { "status": "pending", "verified_address": null, "verified_name": null },
        })
    }

    /// A customer's tax IDs, oldest first.
    pub fn tax_ids_of(&self, customer: &str) -> Vec<&TaxId> {
        let mut ids: Vec<&TaxId> = self
            .tax_ids
            .values()
            .filter(|t| t.customer == customer)
            .collect();
        ids.sort_by(|a, b| a.created.cmp(&b.created).then(a.id.cmp(&b.id)));
        ids
    }

    pub fn tax_id(&self, customer: &str, id: &str) -> Result<&TaxId, ApiError> {
        self.customer(customer, "customer")?;
        self.tax_ids
            .get(id)
            .filter(|t| t.customer == customer)
            .ok_or_else(|| ApiError::no_such("tax_id", id, "id"))
    }

    /// Checks the shape and stores the ID under the customer.
    pub fn create_tax_id(
        &mut self,
        customer: &str,
        kind: &str,
        value: &str,
        now: i64,
    ) -> Result<String, ApiError> {
        self.customer(customer, "customer")?;
        if !TAX_ID_TYPES.iter().any(|(k, _)| *k == kind) {
            return Err(ApiError::invalid_param(
                "type",
                format!("Invalid type: must be one of {}", type_names()),
            ));
        }
        let (value, country) =
            normalise(kind, value).ok_or_else(|| ApiError::tax_id_invalid(kind))?;
        let tax_id = TaxId {
            id: new_id("txi"),
            created: now,
            customer: customer.to_owned(),
            kind: kind.to_owned(),
            value,
            country,
        };
        let id = tax_id.id.clone();
        self.tax_ids.insert(id.clone(), tax_id);
        Ok(id)
    }
}

fn type_names() -> String {
    TAX_ID_TYPES
        .iter()
        .map(|(k, _)| *k)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_normalises_a_well_formed_value_and_names_its_country() {
        let cases = [
            ("eu_vat", "de 123 456 789", "DE123456789", "DE"),
            ("eu_vat", "EL123456789", "EL123456789", "GR"),
            ("gb_vat", "GB123456789012", "GB123456789012", "GB"),
            ("ch_vat", "che-123.456.789 tva", "CHE-123.456.789 TVA", "CH"),
            ("no_vat", "123456789 MVA", "123456789MVA", "NO"),
            ("au_abn", "12 345 678 912", "12345678912", "AU"),
            ("nz_gst", "12345678", "12345678", "NZ"),
            ("ca_bn", "123456789", "123456789", "CA"),
            ("us_ein", "123456789", "123456789", "US"),
        ];
        for (kind, raw, stored, country) in cases {
            assert_eq!(
                normalise(kind, raw),
                Some((stored.to_owned(), country.to_owned())),
                "{kind} {raw}"
            );
        }
    }

    #[test]
    fn a_malformed_value_or_an_unknown_type_is_refused() {
        for (kind, raw) in [
            ("eu_vat", "DEXXXXXXXX"),
            ("eu_vat", "GB123456789"),
            ("gb_vat", "123456789"),
            ("ch_vat", "CHE-123.456.78 MWST"),
            ("no_vat", "12345678MVA"),
            ("us_ein", "123-456789"),
            ("us_ein", "12-34567890"),
            ("xx_tax", "123"),
        ] {
            assert_eq!(normalise(kind, raw), None, "{kind} {raw}");
        }
    }
}
