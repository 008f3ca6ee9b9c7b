//! Typed identifiers. A `UserId` cannot be passed where a `SessionId` is expected.
//!
//! New ids are UUID v7 (time-ordered), which keeps database indexes compact and makes ids sort by
//! creation time. Parsing accepts any UUID form the `uuid` crate reads (hyphenated, simple, braced,
//! URN), so ids created elsewhere are still accepted.

use uuid::Uuid;

/// Why a string is not a valid id of the named kind.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("invalid {kind} id")]
pub struct IdError {
    /// Which id was expected: "user", "session" or "plan".
    pub kind: &'static str,
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $kind:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize)]
        pub struct $name(Uuid);

        impl $name {
            /// A fresh, time-ordered (v7) id.
            #[allow(clippy::new_without_default)] // a "default" id that is random would surprise
            pub fn new() -> Self {
                Self(Uuid::now_v7())
            }

            pub fn from_uuid(u: Uuid) -> Self {
                Self(u)
            }

            pub fn as_uuid(&self) -> Uuid {
                self.0
            }

            pub fn parse(s: &str) -> Result<Self, IdError> {
                Uuid::parse_str(s.trim()).map(Self).map_err(|_| IdError { kind: $kind })
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.0.hyphenated(), f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = IdError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::parse(s)
            }
        }

        impl From<Uuid> for $name {
            fn from(u: Uuid) -> Self {
                Self(u)
            }
        }

        impl From<$name> for Uuid {
            fn from(id: $name) -> Uuid {
                id.0
            }
        }
    };
}

id_type!(
    /// Identifies a user account.
    UserId,
    "user"
);
id_type!(
    /// Identifies a sign-in session (one refresh-token family).
    SessionId,
    "session"
);
id_type!(
    /// Identifies a user's plan row.
    PlanId,
    "plan"
);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn new_ids_are_version_7_and_distinct() {
        let a = UserId::new();
        let b = UserId::new();
        assert_ne!(a, b);
        assert_eq!(a.as_uuid().get_version_num(), 7);
        assert_eq!(SessionId::new().as_uuid().get_version_num(), 7);
        assert_eq!(PlanId::new().as_uuid().get_version_num(), 7);
    }

    #[test]
    fn ids_created_later_sort_after_earlier_ones() {
        let first = SessionId::new();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let second = SessionId::new();
        assert!(first < second);
    }

    #[test]
    fn an_id_displays_as_a_hyphenated_lower_case_uuid_and_parses_back() {
        let u = Uuid::parse_str("0193A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B").unwrap();
        let id = UserId::from_uuid(u);
        assert_eq!(id.to_string(), "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
        assert_eq!(UserId::parse(&id.to_string()), Ok(id));
        assert_eq!(id.as_uuid(), u);
    }

    #[test]
    fn garbage_is_refused_with_an_error_naming_the_kind() {
        assert_eq!(UserId::parse("not-a-uuid"), Err(IdError { kind: "user" }));
        assert_eq!(SessionId::parse(""), Err(IdError { kind: "session" }));
        assert_eq!(
            PlanId::parse("1234").unwrap_err().to_string(),
            "invalid plan id"
        );
    }

    #[test]
    fn an_id_serialises_as_a_plain_uuid_string() {
        let id = PlanId::parse("0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b").unwrap();
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, "\"0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b\"");
        assert_eq!(serde_json::from_str::<PlanId>(&json).unwrap(), id);
    }

    proptest! {
        #[test]
        fn every_uuid_round_trips_through_display_and_parse(bytes in any::<[u8; 16]>()) {
            let id = SessionId::from_uuid(Uuid::from_bytes(bytes));
            prop_assert_eq!(SessionId::parse(&id.to_string()), Ok(id));
            prop_assert_eq!(id.to_string().parse::<SessionId>(), Ok(id));
        }

        #[test]
        fn strings_that_are_not_uuids_are_refused(raw in "[g-z ]{0,40}|[0-9a-f]{0,31}") {
            prop_assert_eq!(UserId::parse(&raw), Err(IdError { kind: "user" }));
        }
    }
}
