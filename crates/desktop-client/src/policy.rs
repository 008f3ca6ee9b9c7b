//! The team's policy the app obeys, carried in the entitlement token (`policy` and
//! `policy_version` claims) and so verified offline with the token's signature: the version must
//! be the SHA-256 of the policy's canonical JSON (object keys sorted, no spaces), as the server
//! computes it. The app refuses meeting apps outside `allowed_apps`, shows or reads the consent
//! notice, and reports the version in every heartbeat.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// The recording-consent notice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsentNotice {
    /// `off`, `show` or `read_aloud`.
    pub mode: String,
    #[serde(default)]
    pub text: String,
    /// By region: `EU`, a country (`DE`) or a US state (`US-CA`).
    #[serde(default)]
    pub regions: BTreeMap<String, String>,
}

/// The policy (docs/api.md, "Team policy").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    pub consent_notice: ConsentNotice,
    pub allowed_apps: Vec<String>,
    pub hint_categories: BTreeMap<String, bool>,
    pub retention_days: u32,
    pub require_mfa: bool,
    pub require_sso: bool,
}

/// The apps `call start --app` names, and how the admin's policy calls them.
pub const APPS: [(&str, &str); 4] = [
    ("zoom", "Zoom"),
    ("meet", "Google Meet"),
    ("teams", "Microsoft Teams"),
    ("phone", "phone dialers"),
];

const EU: [&str; 27] = [
    "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV",
    "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
];

fn app_name(app: &str) -> &str {
    APPS.iter()
        .find(|(id, _)| *id == app)
        .map_or(app, |(_, name)| name)
}

impl Policy {
    /// None when `app` is allowed; otherwise the refusal to show, in the policy's words.
    pub fn refusal(&self, app: &str) -> Option<String> {
        if self.allowed_apps.iter().any(|a| a == app) {
            return None;
        }
        let allowed: Vec<&str> = self.allowed_apps.iter().map(|a| app_name(a)).collect();
        let allowed = if allowed.is_empty() {
            "no meeting app".to_string()
        } else {
            allowed.join(", ")
        };
        Some(format!(
            "Your team's policy does not allow Closewise in {}. Allowed: {allowed}.",
            app_name(app)
        ))
    }

    /// The consent text for a device in `region` (None: the notice is off). The most specific
    /// variant wins: the region, its country, `EU` for a member state, then the default.
    pub fn consent_text(&self, region: Option<&str>) -> Option<&str> {
        let n = &self.consent_notice;
        if n.mode == "off" {
            return None;
        }
        let variant = region.and_then(|r| {
            let country = r.split('-').next().unwrap_or(r);
            let eu = EU.contains(&country).then_some("EU");
            [Some(r), Some(country), eu]
                .into_iter()
                .flatten()
                .find_map(|k| n.regions.get(k))
        });
        Some(variant.unwrap_or(&n.text))
    }
}

/// JSON with every object's keys sorted and no spaces (the server's canonical form).
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

/// The policy of verified claims, checked against its version.
pub fn verified_policy(
    policy: Option<&serde_json::Value>,
    version: Option<&str>,
) -> Result<(Policy, String)> {
    let (Some(value), Some(version)) = (policy, version) else {
        return Err(Error::InvalidEntitlement(
            "the token carries no policy".into(),
        ));
    };
    let hash: String = Sha256::digest(canonical_json(value).as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if hash != version {
        return Err(Error::InvalidEntitlement(
            "the policy does not match its version".into(),
        ));
    }
    let policy = serde_json::from_value(value.clone())
        .map_err(|e| Error::InvalidEntitlement(format!("unreadable policy ({e})")))?;
    Ok((policy, version.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn value() -> serde_json::Value {
        json!({"consent_notice": {"mode": "show", "text": "Recorded.", "regions": {"EU": "EU text", "US-CA": "CA text"}},
            "allowed_apps": ["meet", "phone"], "retention_days": 7, "require_mfa": false,
            "hint_categories": {"objections": true, "replies": false, "follow_ups": true}, "require_sso": false})
    }

    fn version(v: &serde_json::Value) -> String {
        Sha256::digest(canonical_json(v).as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[test]
    fn a_policy_verifies_against_its_version_only() {
        let v = value();
        let (p, ver) = verified_policy(Some(&v), Some(&version(&v))).unwrap();
        assert_eq!((p.retention_days, ver.len()), (7, 64));
        let mut tampered = v.clone();
        tampered["allowed_apps"] = json!(["zoom", "meet", "phone"]);
        assert!(matches!(
            verified_policy(Some(&tampered), Some(&version(&v))),
            Err(Error::InvalidEntitlement(_))
        ));
        assert!(verified_policy(None, None).is_err());
        assert!(canonical_json(&v).starts_with(r#"{"allowed_apps":["meet","phone"],"consent_notice":{"mode":"show","regions":{"EU":"EU text","US-CA":"CA text"},"text":"Recorded."}"#));
    }

    #[test]
    fn apps_outside_the_list_are_refused_in_the_policy_s_words_and_the_notice_applies() {
        let (p, _) = verified_policy(Some(&value()), Some(&version(&value()))).unwrap();
        assert_eq!(p.refusal("meet"), None);
        assert_eq!(
            p.refusal("zoom").unwrap(),
            "Your team's policy does not allow Closewise in Zoom. Allowed: Google Meet, phone dialers."
        );
        assert_eq!(p.consent_text(None), Some("Recorded."));
        assert_eq!(p.consent_text(Some("US-CA")), Some("CA text"));
        assert_eq!(p.consent_text(Some("DE")), Some("EU text"));
        let mut off = p.clone();
        off.consent_notice.mode = "off".into();
        assert_eq!(off.consent_text(Some("DE")), None);
    }
}
