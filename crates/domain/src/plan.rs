//! Plan types and the plan every new account starts on.
//!
//! Spec: the Free Trial (5 calls of 5 minutes each) becomes Monthly ("Unlimited Sales Copilot",
//! badge "Pro Plan") once a subscription is active.

use std::fmt;

/// The kind of plan a user is on. Stored and sent as `"free"` / `"monthly"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanType {
    Free,
    Monthly,
}

/// A string that names no [`PlanType`].
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("unknown plan type {0:?} (expected \"free\" or \"monthly\")")]
pub struct UnknownPlanType(pub String);

impl PlanType {
    pub const ALL: [PlanType; 2] = [PlanType::Free, PlanType::Monthly];

    pub fn as_str(&self) -> &'static str {
        match self {
            PlanType::Free => "free",
            PlanType::Monthly => "monthly",
        }
    }

    /// Parses the stored name exactly (`"free"`, `"monthly"`).
    pub fn parse(s: &str) -> Result<Self, UnknownPlanType> {
        match s {
            "free" => Ok(PlanType::Free),
            "monthly" => Ok(PlanType::Monthly),
            other => Err(UnknownPlanType(other.to_owned())),
        }
    }

    /// True for the paid plan.
    pub fn is_paid(&self) -> bool {
        matches!(self, PlanType::Monthly)
    }
}

impl fmt::Display for PlanType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Rows decode through this (`#[sqlx(try_from = "String")]` in the store).
impl TryFrom<String> for PlanType {
    type Error = UnknownPlanType;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl std::str::FromStr for PlanType {
    type Err = UnknownPlanType;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// Whether a plan row is in force. Stored and sent as `"active"` / `"inactive"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanStatus {
    Active,
    Inactive,
}

/// A string that names no [`PlanStatus`].
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("unknown plan status {0:?} (expected \"active\" or \"inactive\")")]
pub struct UnknownPlanStatus(pub String);

impl PlanStatus {
    pub const ALL: [PlanStatus; 2] = [PlanStatus::Active, PlanStatus::Inactive];

    pub fn as_str(&self) -> &'static str {
        match self {
            PlanStatus::Active => "active",
            PlanStatus::Inactive => "inactive",
        }
    }

    pub fn parse(s: &str) -> Result<Self, UnknownPlanStatus> {
        match s {
            "active" => Ok(PlanStatus::Active),
            "inactive" => Ok(PlanStatus::Inactive),
            other => Err(UnknownPlanStatus(other.to_owned())),
        }
    }
}

impl fmt::Display for PlanStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl TryFrom<String> for PlanStatus {
    type Error = UnknownPlanStatus;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl std::str::FromStr for PlanStatus {
    type Err = UnknownPlanStatus;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// What the Free Trial includes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
pub struct FreeTrialLimits {
    pub calls: u32,
    pub minutes_per_call: u32,
}

/// Spec: "Free Trial: 5 calls of 5 minutes each".
pub const FREE_TRIAL: FreeTrialLimits = FreeTrialLimits {
    calls: 5,
    minutes_per_call: 5,
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn plan_types_have_their_stored_names() {
        assert_eq!(PlanType::Free.as_str(), "free");
        assert_eq!(PlanType::Monthly.as_str(), "monthly");
        assert!(PlanType::Monthly.is_paid());
        assert!(!PlanType::Free.is_paid());
    }

    #[test]
    fn plan_types_serialise_as_their_stored_names() {
        assert_eq!(
            serde_json::to_string(&PlanType::Monthly).unwrap(),
            "\"monthly\""
        );
        assert_eq!(
            serde_json::from_str::<PlanType>("\"free\"").unwrap(),
            PlanType::Free
        );
        assert_eq!(
            serde_json::to_string(&PlanStatus::Inactive).unwrap(),
            "\"inactive\""
        );
    }

    #[test]
    fn every_plan_type_and_status_parses_from_its_own_name() {
        for t in PlanType::ALL {
            assert_eq!(PlanType::parse(t.as_str()), Ok(t));
            assert_eq!(t.to_string().parse::<PlanType>(), Ok(t));
        }
        for s in PlanStatus::ALL {
            assert_eq!(PlanStatus::parse(s.as_str()), Ok(s));
            assert_eq!(s.to_string().parse::<PlanStatus>(), Ok(s));
        }
    }

    #[test]
    fn unknown_names_are_refused_and_named_in_the_error() {
        assert_eq!(PlanType::parse("Free"), Err(UnknownPlanType("Free".into())));
        assert_eq!(
            PlanType::parse("yearly").unwrap_err().to_string(),
            "unknown plan type \"yearly\" (expected \"free\" or \"monthly\")"
        );
        assert_eq!(PlanStatus::parse(""), Err(UnknownPlanStatus(String::new())));
    }

    #[test]
    fn the_free_trial_is_five_calls_of_five_minutes() {
        assert_eq!(
            FREE_TRIAL,
            FreeTrialLimits {
                calls: 5,
                minutes_per_call: 5
            }
        );
    }

    proptest! {
        #[test]
        fn only_the_exact_stored_names_parse(raw in "\\PC{0,12}") {
            let known = ["free", "monthly"].contains(&raw.as_str());
            prop_assert_eq!(PlanType::parse(&raw).is_ok(), known);
            let known = ["active", "inactive"].contains(&raw.as_str());
            prop_assert_eq!(PlanStatus::parse(&raw).is_ok(), known);
        }
    }
}
