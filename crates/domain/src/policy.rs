//! A team's policy: what the desktop app does in calls, set by the team's owner and
//! admins and carried, signed, in the entitlement token so the app obeys it offline.
//!
//! The shape is the contract's (docs/api.md, "Team policy"); [`Policy::validate`] checks a whole
//! policy as `PUT /api/team/policy` receives it and answers the first wrong field by name;
//! [`Policy::canonical_json`] and [`Policy::version`] are what the token carries (the version is
//! the SHA-256 of the canonical JSON: object keys sorted, no spaces, so the app can recompute it).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The apps the assistant may attach to, in their canonical order.
pub const APPS: [&str; 4] = ["zoom", "meet", "teams", "phone"];
/// The consent notice's modes.
pub const CONSENT_MODES: [&str; 3] = ["off", "show", "read_aloud"];
/// The hint categories that can be turned on or off.
pub const HINT_CATEGORIES: [&str; 3] = ["objections", "replies", "follow_ups"];
/// How long transcripts stay on the laptop, in days (0: not kept).
pub const RETENTION_DAYS: [u32; 4] = [0, 7, 30, 90];
/// The longest consent text, default or regional, in characters.
pub const MAX_TEXT_CHARS: usize = 1000;
/// The default's retention: 30 days.
pub const DEFAULT_RETENTION_DAYS: u32 = 30;

/// The EU's member states (ISO 3166-1 alpha-2): a device in one of them gets the `EU` variant
/// when its country has none of its own.
pub const EU_COUNTRIES: [&str; 27] = [
    "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV",
    "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
];

/// US states and DC (ISO 3166-2:US subdivisions, after `US-`).
const US_STATES: &str = "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN \
    MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY";

/// ISO 3166-1 alpha-2 country codes.
const COUNTRIES: &str = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI \
    BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY \
    CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN \
    GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH \
    KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO \
    MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL \
    PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV \
    SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN \
    VU WF WS YE YT ZA ZM ZW";

/// The recording-consent notice: `off`, or a text shown (`show`) or read (`read_aloud`) at the
/// start of every call, with variants per region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsentNotice {
    /// `off`, `show` or `read_aloud`.
    pub mode: String,
    /// The default text (used where no region's variant applies).
    #[serde(default)]
    pub text: String,
    /// Variants by region code: `EU`, a country (`DE`) or a US state (`US-CA`).
    #[serde(default)]
    pub regions: BTreeMap<String, String>,
}

/// A team's policy, the contract's shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    pub consent_notice: ConsentNotice,
    /// Of `zoom`, `meet`, `teams`, `phone`.
    pub allowed_apps: Vec<String>,
    /// `objections`, `replies`, `follow_ups`: each on or off.
    pub hint_categories: BTreeMap<String, bool>,
    /// 0, 7, 30 or 90.
    pub retention_days: u32,
    /// The team's "require a second factor" switch (the team's own column is the truth; the
    /// policy mirrors it).
    pub require_mfa: bool,
    /// The team's "require SSO" switch, stored here.
    pub require_sso: bool,
}

/// A policy field that is wrong: `field` names it (`consent_notice.regions.US-XX`,
/// `allowed_apps`, `hint_categories.gossip`, `retention_days`...).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct PolicyError {
    pub field: String,
    pub message: String,
}

fn refuse(field: impl Into<String>, message: impl Into<String>) -> PolicyError {
    PolicyError {
        field: field.into(),
        message: message.into(),
    }
}

impl Default for Policy {
    /// No notice, every app, every hint, transcripts kept 30 days, nothing required.
    fn default() -> Self {
        Policy {
            consent_notice: ConsentNotice {
                mode: "off".into(),
                text: String::new(),
                regions: BTreeMap::new(),
            },
            allowed_apps: APPS.iter().map(|a| a.to_string()).collect(),
            hint_categories: HINT_CATEGORIES
                .iter()
                .map(|c| (c.to_string(), true))
                .collect(),
            retention_days: DEFAULT_RETENTION_DAYS,
            require_mfa: false,
            require_sso: false,
        }
    }
}

/// Whether `code` is a region a notice may have a variant for: `EU`, an ISO 3166-1 alpha-2
/// country, or `US-` and a state (or `DC`).
pub fn valid_region(code: &str) -> bool {
    let listed = |list: &str, c: &str| c.len() == 2 && list.split_whitespace().any(|x| x == c);
    match code.strip_prefix("US-") {
        Some(state) => listed(US_STATES, state),
        None => code == "EU" || listed(COUNTRIES, code),
    }
}

fn check_text(field: &str, text: &str) -> Result<(), PolicyError> {
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(refuse(field, "is longer than 1,000 characters."));
    }
    Ok(())
}

impl Policy {
    /// Checks a whole policy and answers it normalised (apps deduplicated, in canonical order).
    pub fn validate(mut self) -> Result<Policy, PolicyError> {
        let notice = &self.consent_notice;
        if !CONSENT_MODES.contains(&notice.mode.as_str()) {
            return Err(refuse(
                "consent_notice.mode",
                "must be off, show or read_aloud.",
            ));
        }
        check_text("consent_notice.text", &notice.text)?;
        if notice.mode != "off" && notice.text.trim().is_empty() {
            return Err(refuse(
                "consent_notice.text",
                "is needed when the notice is shown or read aloud.",
            ));
        }
        for (region, text) in &notice.regions {
            let field = format!("consent_notice.regions.{region}");
            if !valid_region(region) {
                return Err(refuse(
                    field,
                    format!(
                        "{region:?} is not a region code: EU, a country such as DE or a US state \
                         such as US-CA."
                    ),
                ));
            }
            check_text(&field, text)?;
            if text.trim().is_empty() {
                return Err(refuse(field, "is empty."));
            }
        }
        if let Some(app) = self
            .allowed_apps
            .iter()
            .find(|a| !APPS.contains(&a.as_str()))
        {
            return Err(refuse(
                "allowed_apps",
                format!("{app:?} is not an app: zoom, meet, teams or phone."),
            ));
        }
        self.allowed_apps = APPS
            .iter()
            .filter(|a| self.allowed_apps.iter().any(|x| x == *a))
            .map(|a| a.to_string())
            .collect();
        if let Some(c) = self
            .hint_categories
            .keys()
            .find(|c| !HINT_CATEGORIES.contains(&c.as_str()))
        {
            return Err(refuse(
                format!("hint_categories.{c}"),
                format!("{c:?} is not a hint category: objections, replies or follow_ups."),
            ));
        }
        if let Some(c) = HINT_CATEGORIES
            .iter()
            .find(|c| !self.hint_categories.contains_key(**c))
        {
            return Err(refuse(
                format!("hint_categories.{c}"),
                "is missing: say true or false.",
            ));
        }
        if !RETENTION_DAYS.contains(&self.retention_days) {
            return Err(refuse("retention_days", "must be 0, 7, 30 or 90."));
        }
        Ok(self)
    }

    /// The policy as JSON with object keys sorted and no spaces: what its version hashes.
    pub fn canonical_json(&self) -> String {
        let value = serde_json::to_value(self).expect("a policy is plain JSON");
        canonical_json(&value)
    }

    /// `policy_version`: the SHA-256 of [`Policy::canonical_json`], in lower-case hex.
    pub fn version(&self) -> String {
        version_of(&self.canonical_json())
    }

    /// The consent text a device in `region` shows or reads (None: no notice). The most specific
    /// variant wins: the exact region (`US-CA`), its country (`US`), `EU` for a member state, then
    /// the default text.
    pub fn consent_text(&self, region: Option<&str>) -> Option<&str> {
        let notice = &self.consent_notice;
        if notice.mode == "off" {
            return None;
        }
        let variant = region.and_then(|r| {
            let country = r.split('-').next().unwrap_or(r);
            let eu = EU_COUNTRIES.contains(&country).then_some("EU");
            [Some(r), Some(country), eu]
                .into_iter()
                .flatten()
                .find_map(|k| notice.regions.get(k))
        });
        Some(variant.unwrap_or(&notice.text).as_str())
    }

    /// Whether the assistant may attach to `app`.
    pub fn allows_app(&self, app: &str) -> bool {
        self.allowed_apps.iter().any(|a| a == app)
    }
}

/// A device is active, and counted by [`adoption`], when seen in the last 30 days.
pub const ACTIVE_DEVICE_DAYS: i64 = 30;

/// How many of a team's active devices obey the current policy: "9 of 11 devices on the current
/// policy; 2 last seen 3 days ago".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Adoption {
    /// Active devices.
    pub devices: u32,
    /// Those whose last heartbeat reported the current version.
    pub current: u32,
    /// The latest time one of the others was seen (None when all are current).
    pub behind_last_seen_at: Option<time::OffsetDateTime>,
}

/// Counts `devices` (the version each last reported, None before any, and when it was last
/// seen) against the `current` version.
pub fn adoption<'a>(
    current: &str,
    devices: impl IntoIterator<Item = (Option<&'a str>, time::OffsetDateTime)>,
) -> Adoption {
    let mut a = Adoption::default();
    for (version, seen) in devices {
        a.devices += 1;
        if version == Some(current) {
            a.current += 1;
        } else {
            a.behind_last_seen_at = Some(a.behind_last_seen_at.map_or(seen, |t| t.max(seen)));
        }
    }
    a
}

/// Whether `v` has the form of a `policy_version`: 64 lower-case hex digits.
pub fn is_policy_version(v: &str) -> bool {
    v.len() == 64 && v.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// JSON text with every object's keys sorted and no insignificant spaces.
pub fn canonical_json(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::String(k.clone()), canonical_json(&map[k])))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(canonical_json).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

/// The lower-case hex SHA-256 of `canonical`.
pub fn version_of(canonical: &str) -> String {
    Sha256::digest(canonical.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
