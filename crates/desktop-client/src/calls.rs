//! The call meter: start a call, send a heartbeat every 30 s, end it. The server decides; the
//! errors the app acts on are typed ([`Error::FreeCallsUsedUp`], [`Error::CallTimeLimitReached`],
//! [`Error::PlanLapsed`], [`Error::CallEnded`], [`Error::CallNotFound`]) and carry the server's
//! message to show.

use reqwest::{Method, StatusCode};
use serde::{Deserialize, Serialize};

use crate::client::{read_json, Client};
use crate::error::{Error, Result};

/// How often the app should call [`Client::heartbeat`] during a call.
pub const HEARTBEAT_SECONDS: u64 = 30;

/// `POST /api/calls`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartedCall {
    pub call_id: String,
    /// RFC 3339.
    pub started_at: String,
    /// `None` on an unlimited plan.
    pub max_seconds: Option<u64>,
    /// The id this start was made with (ours or generated); starting again with it is the same
    /// call.
    #[serde(default)]
    pub client_call_id: String,
    /// `false` when the server already had this `client_call_id` (200 rather than 201).
    #[serde(default)]
    pub created: bool,
}

/// `POST /api/calls/{id}/heartbeat`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heartbeat {
    pub call_id: String,
    pub started_at: String,
    pub elapsed_seconds: u64,
    pub max_seconds: Option<u64>,
    pub ended_at: Option<String>,
}

/// `POST /api/calls/{id}/end`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndedCall {
    pub call_id: String,
    pub started_at: String,
    pub ended_at: String,
    pub duration_seconds: u64,
}

/// A `client_call_id` is 1–64 of `[A-Za-z0-9_-]`.
pub fn valid_client_call_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The refusal of a `client_call_id` that is not one, made before anything is sent.
pub fn check_client_call_id(id: &str) -> Result<()> {
    if valid_client_call_id(id) {
        return Ok(());
    }
    Err(Error::Api {
        status: 400,
        code: "invalid_client_call_id".into(),
        message: format!("{id:?} is not a call id: use 1 to 64 letters, digits, '-' or '_'"),
    })
}

impl Client {
    /// Starts a call. Retrying with the same `client_call_id` (after a timeout, say) answers the
    /// same call rather than counting a second one; `None` makes a fresh UUID.
    pub async fn start_call(&self, client_call_id: Option<&str>) -> Result<StartedCall> {
        let id = match client_call_id {
            Some(id) => {
                check_client_call_id(id)?;
                id.to_string()
            }
            None => uuid::Uuid::new_v4().to_string(),
        };
        let body = serde_json::json!({ "client_call_id": id });
        let resp = self
            .authorized(Method::POST, "/api/calls", Some(&body))
            .await?;
        let created = resp.status() == StatusCode::CREATED;
        let mut call: StartedCall = read_json(resp).await?;
        call.client_call_id = id;
        call.created = created;
        Ok(call)
    }

    /// Tells the server the call goes on. [`Error::CallTimeLimitReached`] means the call was ended
    /// at its limit (5 minutes free, 4 hours paid), [`Error::PlanLapsed`] that the paid plan it
    /// ran on has ended: stop the hints and show the message.
    /// The body reports the `policy_version` of the stored entitlement the app obeys.
    pub async fn heartbeat(&self, call_id: &str) -> Result<Heartbeat> {
        let body = match self.stored_policy_version().await? {
            Some(v) => serde_json::json!({ "policy_version": v }),
            None => serde_json::json!({}),
        };
        let resp = self
            .authorized(Method::POST, &call_path(call_id, "heartbeat"), Some(&body))
            .await?;
        read_json(resp).await
    }

    /// Ends the call; ending an ended call answers the same.
    pub async fn end_call(&self, call_id: &str) -> Result<EndedCall> {
        let resp = self
            .authorized(Method::POST, &call_path(call_id, "end"), None)
            .await?;
        read_json(resp).await
    }
}

/// `/api/calls/{id}/{action}`, the id percent-encoded so it stays one path segment.
fn call_path(call_id: &str, action: &str) -> String {
    let id: String = url::form_urlencoded::byte_serialize(call_id.as_bytes()).collect();
    format!("/api/calls/{id}/{action}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::error_from_body;

    #[test]
    fn client_call_ids_follow_the_contract() {
        assert!(valid_client_call_id("call_2026-11-23_a"));
        assert!(valid_client_call_id(&"a".repeat(64)));
        assert!(valid_client_call_id(&uuid::Uuid::new_v4().to_string()));
        for bad in ["", "has space", "slash/", "é", &"a".repeat(65)] {
            assert!(!valid_client_call_id(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_call_id_stays_one_path_segment() {
        assert_eq!(call_path("abc-1", "end"), "/api/calls/abc-1/end");
        assert_eq!(call_path("../x", "end"), "/api/calls/..%2Fx/end");
    }

    #[test]
    fn the_meter_s_errors_are_typed_and_keep_the_server_s_message() {
        let body = |code: &str, message: &str| {
            serde_json::json!({"error": {"code": code, "message": message}}).to_string()
        };
        let used_up = "You have used your 5 free calls. Upgrade to keep getting live hints.";
        let e = error_from_body(403, body("free_calls_used_up", used_up).as_bytes());
        assert!(matches!(&e, Error::FreeCallsUsedUp(m) if m == used_up));
        assert_eq!(e.to_string(), used_up);
        let limit = "Your free call has reached its 5-minute limit.";
        let e = error_from_body(409, body("call_time_limit_reached", limit).as_bytes());
        assert!(matches!(&e, Error::CallTimeLimitReached(m) if m == limit));
        let lapsed = "Your paid plan is no longer active, so this call has ended. Renew to keep getting live hints.";
        let e = error_from_body(409, body("plan_lapsed", lapsed).as_bytes());
        assert!(matches!(&e, Error::PlanLapsed(m) if m == lapsed));
        assert_eq!(
            (e.code(), e.to_string().as_str()),
            (Some("plan_lapsed"), lapsed)
        );
        let e = error_from_body(
            409,
            body("call_ended", "This call has already ended.").as_bytes(),
        );
        assert!(matches!(e, Error::CallEnded(_)));
        let e = error_from_body(404, body("call_not_found", "No such call.").as_bytes());
        assert!(matches!(e, Error::CallNotFound(_)));
        assert_eq!(e.code(), Some("call_not_found"));
        let e = error_from_body(429, body("rate_limited", "Too many requests.").as_bytes());
        assert!(matches!(e, Error::Api { status: 429, .. }));
        assert!(matches!(
            error_from_body(500, b"<html>"),
            Error::Protocol(_)
        ));
    }
}
