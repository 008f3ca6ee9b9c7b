//! The discovery documents (RFC 7643 §5–7, RFC 7644 §4): what this service provider supports
//! (PATCH and filtering; no bulk, sort, ETags, password changes or Groups), its one resource type
//! (User) and the User schema's attributes it keeps. They describe the server, not a team: no
//! token is needed to read them.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use closewise_core::scim::MAX_RESULTS;
use closewise_domain::scim::USER_SCHEMA;
use serde_json::{json, Value};

use super::{base, Scim};
use crate::error::scim::ScimApiError;
use crate::state::AppState;

pub const LIST_RESPONSE: &str = "urn:ietf:params:scim:api:messages:2.0:ListResponse";

/// A ListResponse of every item in one page.
pub fn list(items: Vec<Value>) -> Value {
    json!({
        "schemas": [LIST_RESPONSE],
        "totalResults": items.len(),
        "itemsPerPage": items.len(),
        "startIndex": 1,
        "Resources": items,
    })
}

pub async fn service_provider_config(State(state): State<AppState>) -> Scim {
    let base = base(&state);
    Scim(
        StatusCode::OK,
        json!({
            "schemas": ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
            "documentationUri": format!("{}/docs/api#scim", state.settings.base_url.trim_end_matches('/')),
            "patch": {"supported": true},
            "bulk": {"supported": false, "maxOperations": 0, "maxPayloadSize": 0},
            "filter": {"supported": true, "maxResults": MAX_RESULTS},
            "changePassword": {"supported": false},
            "sort": {"supported": false},
            "etag": {"supported": false},
            "authenticationSchemes": [{
                "type": "oauthbearertoken",
                "name": "SCIM token",
                "description": "A team's SCIM token (Team → Security → SCIM tokens) as a bearer token.",
                "primary": true,
            }],
            "meta": {
                "resourceType": "ServiceProviderConfig",
                "location": format!("{base}/ServiceProviderConfig"),
            },
        }),
    )
}

fn user_resource_type(base: &str) -> Value {
    json!({
        "schemas": ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
        "id": "User",
        "name": "User",
        "endpoint": "/Users",
        "description": "A person of the team: userName is their e-mail address at one of the team's verified domains.",
        "schema": USER_SCHEMA,
        "schemaExtensions": [],
        "meta": {"resourceType": "ResourceType", "location": format!("{base}/ResourceTypes/User")},
    })
}

pub async fn resource_types(State(state): State<AppState>) -> Scim {
    Scim(
        StatusCode::OK,
        list(vec![user_resource_type(&base(&state))]),
    )
}

pub async fn resource_type(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Scim, ScimApiError> {
    if id != "User" {
        return Err(ScimApiError::not_found());
    }
    Ok(Scim(StatusCode::OK, user_resource_type(&base(&state))))
}

fn attribute(name: &str, kind: &str, description: &str) -> Value {
    json!({
        "name": name,
        "type": kind,
        "multiValued": false,
        "description": description,
        "required": false,
        "caseExact": false,
        "mutability": "readWrite",
        "returned": "default",
        "uniqueness": "none",
    })
}

fn user_schema(base: &str) -> Value {
    let mut user_name = attribute(
        "userName",
        "string",
        "The person's e-mail address, at one of the team's verified domains.",
    );
    user_name["required"] = true.into();
    user_name["uniqueness"] = "server".into();
    let mut name = attribute("name", "complex", "The person's name.");
    name["subAttributes"] = json!([
        attribute("formatted", "string", "The full name."),
        attribute("familyName", "string", "The family name."),
        attribute("givenName", "string", "The given name."),
    ]);
    let mut emails = attribute("emails", "complex", "E-mail addresses.");
    emails["multiValued"] = true.into();
    let mut kind = attribute("type", "string", "work, home or other.");
    kind["canonicalValues"] = json!(["work", "home", "other"]);
    emails["subAttributes"] = json!([
        attribute("value", "string", "The address."),
        kind,
        attribute("primary", "boolean", "The primary address."),
    ]);
    json!({
        "schemas": ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
        "id": USER_SCHEMA,
        "name": "User",
        "description": "A person of the team.",
        "attributes": [
            user_name,
            name,
            attribute("displayName", "string", "The name shown."),
            emails,
            attribute("active", "boolean", "False: the person is removed from the team and signed out everywhere."),
        ],
        "meta": {"resourceType": "Schema", "location": format!("{base}/Schemas/{USER_SCHEMA}")},
    })
}

pub async fn schemas(State(state): State<AppState>) -> Scim {
    Scim(StatusCode::OK, list(vec![user_schema(&base(&state))]))
}

pub async fn schema(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Scim, ScimApiError> {
    if id != USER_SCHEMA {
        return Err(ScimApiError::not_found());
    }
    Ok(Scim(StatusCode::OK, user_schema(&base(&state))))
}
