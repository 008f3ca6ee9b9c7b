//! Events: every change emits one; the webhook worker sends them.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{new_id, Origin, Store, API_VERSION};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    pub created: i64,
    #[serde(rename = "type")]
    pub kind: String,
    pub object: Value,
    pub previous_attributes: Option<Value>,
    pub request_id: Option<String>,
    pub idempotency_key: Option<String>,
    pub pending_webhooks: i64,
}

impl Store {
    pub fn emit(
        &mut self,
        kind: &str,
        object: Value,
        previous: Option<Value>,
        origin: &Origin,
        now: i64,
    ) {
        let id = new_id("evt");
        self.events.push(Event {
            id: id.clone(),
            created: now,
            kind: kind.to_owned(),
            object,
            previous_attributes: previous,
            request_id: origin.request_id.clone(),
            idempotency_key: origin.idempotency_key.clone(),
            pending_webhooks: i64::from(self.webhooks_enabled),
        });
        self.outbox.push(id);
    }

    pub fn render_event(&self, e: &Event) -> Value {
        let mut data = json!({ "object": e.object });
        if let Some(prev) = &e.previous_attributes {
            data["previous_attributes"] = prev.clone();
        }
        json!({
            "id": e.id,
            "object": "event",
            "api_version": API_VERSION,
            "created": e.created,
            "data": data,
            "livemode": false,
            "pending_webhooks": e.pending_webhooks,
            "request": { "id": e.request_id, "idempotency_key": e.idempotency_key },
            "type": e.kind,
        })
    }
}
