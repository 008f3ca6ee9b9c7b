//! A customer's company details for invoices: the billing name, the postal address and tax IDs,
//! each parsed once at the edge. Tax IDs are checked with the shapes Stripe checks (so a typo is
//! refused by the field before Stripe is asked), and stored the way Stripe normalises them.
//! Who may see a team's invoices and edit its details is `teams::may` (`ViewInvoices`,
//! `EditBillingDetails`).

use std::fmt;

/// The tax ID types we take: the EU's, the UK's, Switzerland's and Norway's VAT numbers,
/// Australia's ABN, New Zealand's GST number, Canada's BN and the US EIN (Stripe's names).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TaxIdKind {
    EuVat,
    GbVat,
    ChVat,
    NoVat,
    AuAbn,
    NzGst,
    CaBn,
    UsEin,
}

/// The EU's VAT prefixes (Greece's is EL, Northern Ireland's XI).
const EU_VAT_PREFIXES: [&str; 28] = [
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "EL", "ES", "FI", "FR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK", "XI",
];

impl TaxIdKind {
    pub const ALL: [TaxIdKind; 8] = [
        TaxIdKind::EuVat,
        TaxIdKind::GbVat,
        TaxIdKind::ChVat,
        TaxIdKind::NoVat,
        TaxIdKind::AuAbn,
        TaxIdKind::NzGst,
        TaxIdKind::CaBn,
        TaxIdKind::UsEin,
    ];

    /// Stripe's name of the type (`eu_vat`).
    pub fn as_str(self) -> &'static str {
        match self {
            TaxIdKind::EuVat => "eu_vat",
            TaxIdKind::GbVat => "gb_vat",
            TaxIdKind::ChVat => "ch_vat",
            TaxIdKind::NoVat => "no_vat",
            TaxIdKind::AuAbn => "au_abn",
            TaxIdKind::NzGst => "nz_gst",
            TaxIdKind::CaBn => "ca_bn",
            TaxIdKind::UsEin => "us_ein",
        }
    }

    pub fn parse(raw: &str) -> Option<TaxIdKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == raw)
    }

    /// An example of the shape, for the error message.
    pub fn example(self) -> &'static str {
        match self {
            TaxIdKind::EuVat => "DE123456789",
            TaxIdKind::GbVat => "GB123456789",
            TaxIdKind::ChVat => "CHE-123.456.789 MWST",
            TaxIdKind::NoVat => "123456789MVA",
            TaxIdKind::AuAbn => "12345678912",
            TaxIdKind::NzGst => "123456789",
            TaxIdKind::CaBn => "123456789",
            TaxIdKind::UsEin => "12-3456789",
        }
    }

    /// What people call it: "EU VAT number".
    pub fn label(self) -> &'static str {
        match self {
            TaxIdKind::EuVat => "EU VAT number",
            TaxIdKind::GbVat => "UK VAT number",
            TaxIdKind::ChVat => "Swiss VAT number",
            TaxIdKind::NoVat => "Norwegian VAT number",
            TaxIdKind::AuAbn => "Australian Business Number",
            TaxIdKind::NzGst => "New Zealand GST number",
            TaxIdKind::CaBn => "Canadian Business Number",
            TaxIdKind::UsEin => "US Employer Identification Number",
        }
    }
}

fn digits(s: &str, n: usize) -> bool {
    s.len() == n && s.bytes().all(|b| b.is_ascii_digit())
}

/// A tax ID whose value has its type's shape, in Stripe's normalised form.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TaxId {
    kind: TaxIdKind,
    value: String,
}

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TaxIdError {
    #[error(
        "Choose a tax ID type: eu_vat, gb_vat, ch_vat, no_vat, au_abn, nz_gst, ca_bn or us_ein."
    )]
    UnknownKind,
    #[error("This is not a valid {label}. It looks like {example}.", label = .0.label(), example = .0.example())]
    Malformed(TaxIdKind),
}

impl TaxId {
    /// Parses `raw` as a `kind` (Stripe's type name): spaces are dropped and letters upper-cased,
    /// then the shape is checked.
    pub fn parse(kind: &str, raw: &str) -> Result<TaxId, TaxIdError> {
        let kind = TaxIdKind::parse(kind).ok_or(TaxIdError::UnknownKind)?;
        let compact: String = raw
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_uppercase();
        let value = match kind {
            TaxIdKind::EuVat => {
                let (prefix, rest) = compact.split_at_checked(2).unwrap_or(("", ""));
                let ok = EU_VAT_PREFIXES.contains(&prefix)
                    && (2..=12).contains(&rest.len())
                    && rest.bytes().all(|b| b.is_ascii_alphanumeric())
                    && rest.bytes().any(|b| b.is_ascii_digit());
                ok.then_some(compact)
            }
            TaxIdKind::GbVat => compact
                .strip_prefix("GB")
                .is_some_and(|r| digits(r, 9) || digits(r, 12))
                .then_some(compact),
            TaxIdKind::ChVat => {
                let upper = raw.trim().to_uppercase();
                upper.rsplit_once(' ').and_then(|(number, suffix)| {
                    let body = number.strip_prefix("CHE-")?;
                    let groups: Vec<&str> = body.split('.').collect();
                    let ok = matches!(suffix, "MWST" | "TVA" | "IVA")
                        && groups.len() == 3
                        && groups.iter().all(|g| digits(g, 3));
                    ok.then(|| format!("CHE-{body} {suffix}"))
                })
            }
            TaxIdKind::NoVat => compact
                .strip_suffix("MVA")
                .is_some_and(|r| digits(r, 9))
                .then_some(compact),
            TaxIdKind::AuAbn => digits(&compact, 11).then_some(compact),
            TaxIdKind::NzGst => (digits(&compact, 8) || digits(&compact, 9)).then_some(compact),
            TaxIdKind::CaBn => digits(&compact, 9).then_some(compact),
            TaxIdKind::UsEin => {
                let hyphen_ok = compact.find('-').is_none_or(|at| at == 2);
                let plain = compact.replacen('-', "", 1);
                (hyphen_ok && digits(&plain, 9)).then_some(compact)
            }
        };
        value
            .map(|value| TaxId { kind, value })
            .ok_or(TaxIdError::Malformed(kind))
    }

    pub fn kind(&self) -> TaxIdKind {
        self.kind
    }

    pub fn value(&self) -> &str {
        &self.value
    }
}

impl fmt::Display for TaxId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.as_str(), self.value)
    }
}

/// A postal address: every part optional but the country, a two-letter ISO code.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Address {
    pub line1: Option<String>,
    pub line2: Option<String>,
    pub city: Option<String>,
    pub postal_code: Option<String>,
    pub state: Option<String>,
    pub country: String,
}

/// Company details as the owner entered them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BillingDetails {
    pub name: String,
    pub address: Address,
    pub tax_ids: Vec<TaxId>,
}

/// Which field is wrong and why, so the form can say it by the field.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum DetailsError {
    #[error("Enter the company's billing name (at most {max} characters).", max = MAX_PART)]
    Name,
    #[error("Enter the country as a two-letter code, such as DE or GB.")]
    Country,
    #[error("Each line of the address is at most {max} characters.", max = MAX_PART)]
    AddressPart,
    #[error("At most {max} tax IDs.", max = MAX_TAX_IDS)]
    TooManyTaxIds,
    #[error("{error}")]
    TaxId { index: usize, error: TaxIdError },
}

impl DetailsError {
    /// The machine code, one per field, so a form shows the message by the field it is about.
    pub fn code(&self) -> &'static str {
        match self {
            DetailsError::Name => "invalid_billing_name",
            DetailsError::Country => "invalid_country",
            DetailsError::AddressPart => "invalid_address",
            DetailsError::TooManyTaxIds | DetailsError::TaxId { .. } => "invalid_tax_id",
        }
    }
}

/// Longest name or address line Stripe keeps.
pub const MAX_PART: usize = 200;
/// Stripe allows this many tax IDs on a customer.
pub const MAX_TAX_IDS: usize = 5;

fn part(raw: Option<&str>) -> Result<Option<String>, DetailsError> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) if s.chars().count() > MAX_PART || s.chars().any(char::is_control) => {
            Err(DetailsError::AddressPart)
        }
        Some(s) => Ok(Some(s.to_owned())),
    }
}

/// The raw form: what the API and the CLI read.
#[derive(Clone, Debug, Default)]
pub struct RawDetails<'a> {
    pub name: &'a str,
    pub line1: Option<&'a str>,
    pub line2: Option<&'a str>,
    pub city: Option<&'a str>,
    pub postal_code: Option<&'a str>,
    pub state: Option<&'a str>,
    pub country: &'a str,
    /// (type, value)
    pub tax_ids: Vec<(&'a str, &'a str)>,
}

impl BillingDetails {
    pub fn parse(raw: &RawDetails<'_>) -> Result<BillingDetails, DetailsError> {
        let name = raw.name.trim();
        if name.is_empty() || name.chars().count() > MAX_PART || name.chars().any(char::is_control)
        {
            return Err(DetailsError::Name);
        }
        let country = raw.country.trim().to_uppercase();
        if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(DetailsError::Country);
        }
        if raw.tax_ids.len() > MAX_TAX_IDS {
            return Err(DetailsError::TooManyTaxIds);
        }
        let tax_ids = raw
            .tax_ids
            .iter()
            .enumerate()
            .map(|(index, (kind, value))| {
                TaxId::parse(kind, value).map_err(|error| DetailsError::TaxId { index, error })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(BillingDetails {
            name: name.to_owned(),
            address: Address {
                line1: part(raw.line1)?,
                line2: part(raw.line2)?,
                city: part(raw.city)?,
                postal_code: part(raw.postal_code)?,
                state: part(raw.state)?,
                country,
            },
            tax_ids,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn each_type_takes_its_shape_in_stripes_normalised_form() {
        for (kind, raw, stored) in [
            ("eu_vat", "de 123 456 789", "DE123456789"),
            ("eu_vat", "FR12345678901", "FR12345678901"),
            ("gb_vat", "GB123456789", "GB123456789"),
            ("ch_vat", "che-123.456.789 mwst", "CHE-123.456.789 MWST"),
            ("no_vat", "123456789MVA", "123456789MVA"),
            ("au_abn", "12 345 678 912", "12345678912"),
            ("nz_gst", "12345678", "12345678"),
            ("ca_bn", "123456789", "123456789"),
            ("us_ein", "12-3456789", "12-3456789"),
        ] {
            let id = TaxId::parse(kind, raw).unwrap_or_else(|e| panic!("{kind} {raw}: {e}"));
            assert_eq!(id.value(), stored, "{kind} {raw}");
            assert_eq!(id.kind().as_str(), kind);
        }
    }

    #[test]
    fn a_malformed_tax_id_is_refused_with_an_example_of_its_shape() {
        for (kind, raw) in [
            ("eu_vat", "123456789"),
            ("eu_vat", "US123456789"),
            ("gb_vat", "GB12345"),
            ("ch_vat", "CHE-123.456.789"),
            ("no_vat", "123456789"),
            ("au_abn", "1234567891"),
            ("nz_gst", "12345"),
            ("ca_bn", "12345678"),
            ("us_ein", "123456789x"),
        ] {
            let error = TaxId::parse(kind, raw).expect_err(raw);
            assert!(matches!(error, TaxIdError::Malformed(_)), "{kind} {raw}");
        }
        assert_eq!(
            TaxId::parse("eu_vat", "DE1").unwrap_err().to_string(),
            "This is not a valid EU VAT number. It looks like DE123456789."
        );
        assert_eq!(TaxId::parse("xx_tax", "1"), Err(TaxIdError::UnknownKind));
    }

    #[test]
    fn details_name_the_field_that_is_wrong_by_their_code() {
        let good = RawDetails {
            name: " Acme GmbH ",
            line1: Some("Hauptstraße 5"),
            city: Some("Berlin"),
            postal_code: Some("10115"),
            country: "de",
            tax_ids: vec![("eu_vat", "DE123456789")],
            ..RawDetails::default()
        };
        let details = BillingDetails::parse(&good).unwrap();
        assert_eq!(details.name, "Acme GmbH");
        assert_eq!(details.address.country, "DE");
        assert_eq!(details.address.line2, None);
        let cases = [
            (
                RawDetails {
                    name: "  ",
                    ..good.clone()
                },
                "invalid_billing_name",
            ),
            (
                RawDetails {
                    country: "Germany",
                    ..good.clone()
                },
                "invalid_country",
            ),
            (
                RawDetails {
                    city: Some("x\u{7}"),
                    ..good.clone()
                },
                "invalid_address",
            ),
            (
                RawDetails {
                    tax_ids: vec![("eu_vat", "DE1"), ("us_ein", "1")],
                    ..good.clone()
                },
                "invalid_tax_id",
            ),
            (
                RawDetails {
                    tax_ids: vec![("vat", "DE1")],
                    ..good.clone()
                },
                "invalid_tax_id",
            ),
            (
                RawDetails {
                    tax_ids: vec![("ca_bn", "123456789"); 6],
                    ..good.clone()
                },
                "invalid_tax_id",
            ),
        ];
        for (raw, code) in cases {
            assert_eq!(
                BillingDetails::parse(&raw).unwrap_err().code(),
                code,
                "{raw:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn every_nine_digit_number_is_a_canadian_bn_and_an_ein(n in 0u32..1_000_000_000) {
            let raw = format!("{n:09}");
            prop_assert!(TaxId::parse("ca_bn", &raw).is_ok());
            prop_assert!(TaxId::parse("us_ein", &raw).is_ok());
            prop_assert!(TaxId::parse("au_abn", &raw).is_err());
        }

        #[test]
        fn letters_after_the_prefix_alone_are_never_a_vat_number(rest in "[A-Z]{2,12}") {
            let raw = format!("DE{rest}");
            prop_assert!(TaxId::parse("eu_vat", &raw).is_err());
        }
    }
}
