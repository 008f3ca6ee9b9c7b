//! The OpenAPI document, generated from the handlers' annotations as the routes register them
//! (`crate::api_router`: each route once, for the router and the document). It is served at
//! `/api/openapi.json` and committed as `docs/openapi.json`; a test fails when they differ, and the
//! web's contract test checks its MSW handlers against the committed file.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::auth;

#[derive(OpenApi)]
#[openapi(
    info(title = "Closewise API", version = "1.0.0", description = "Accounts, plans and billing for Closewise. Errors are `{\"error\": {\"code\", \"message\"}}`."),
    components(schemas(crate::error::ErrorBody, auth::RefreshRequest, auth::CodeGrantRequest, auth::DeviceGrantRequest, auth::PasskeyGrantRequest)),
    tags((name = "auth"), (name = "plans"), (name = "billing"), (name = "usage"), (name = "downloads"), (name = "teams"), (name = "setup"), (name = "passkeys"), (name = "ops"))
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        if let Some(components) = openapi.components.as_mut() {
            components.add_security_scheme(
                "bearer",
                SecurityScheme::Http(
                    HttpBuilder::new()
                        .scheme(HttpAuthScheme::Bearer)
                        .bearer_format("JWT")
                        .build(),
                ),
            );
        }
    }
}

/// The answers every operation can give that its annotation does not repeat: a JSON body can be
/// malformed (400 `invalid_json`), too large (413) or not JSON at all (415); a bearer call can be
/// refused (401). Without them the document under-describes the API (schemathesis: ST103
/// "undocumented status code").
struct CommonErrors;

impl Modify for CommonErrors {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
        let error = |description: &str| {
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("ErrorBody")))
                        .build(),
                )
                .build()
        };
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                item.get.as_mut(),
                item.put.as_mut(),
                item.post.as_mut(),
                item.delete.as_mut(),
                item.patch.as_mut(),
            ];
            for op in operations.into_iter().flatten() {
                let responses = &mut op.responses.responses;
                if op.request_body.is_some() {
                    for (status, text) in [
                        (
                            "400",
                            "`invalid_json`: the body is not JSON or has wrong types",
                        ),
                        ("413", "`payload_too_large`: the body is over 64 KiB"),
                        (
                            "415",
                            "`unsupported_media_type`: the body is not `application/json`",
                        ),
                    ] {
                        responses
                            .entry(status.to_string())
                            .or_insert_with(|| error(text).into());
                    }
                }
                if op.security.as_ref().is_some_and(|s| !s.is_empty()) {
                    responses
                        .entry("401".to_string())
                        .or_insert_with(|| error("`not_signed_in` or `invalid_token`").into());
                }
            }
        }
    }
}

/// An optional request body (`request_body = Option<T>`) is absent, not JSON `null`: utoipa writes
/// it `oneOf: [null, T]`, which would promise that a `null` body is accepted (it is `invalid_json`).
/// The body stays `T`, not required.
struct OptionalBodies;

impl Modify for OptionalBodies {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::schema::{Schema, SchemaType, Type};
        use utoipa::openapi::RefOr;
        let is_null = |s: &RefOr<Schema>| matches!(s, RefOr::T(Schema::Object(o)) if o.schema_type == SchemaType::Type(Type::Null));
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                item.put.as_mut(),
                item.post.as_mut(),
                item.delete.as_mut(),
                item.patch.as_mut(),
            ];
            for op in operations.into_iter().flatten() {
                let Some(body) = op.request_body.as_mut() else {
                    continue;
                };
                for content in body.content.values_mut() {
                    if let Some(RefOr::T(Schema::OneOf(one_of))) = &content.schema {
                        let mut rest = one_of.items.iter().filter(|s| !is_null(s));
                        if let (Some(only), None, true) =
                            (rest.next(), rest.next(), one_of.items.iter().any(is_null))
                        {
                            content.schema = Some(only.clone());
                        }
                    }
                }
            }
        }
    }
}

/// The token endpoint's body is one of the grant bodies *by `grant_type`*, not by shape: `RefreshBody`
/// (all optional) matches any object, so a `oneOf` would promise that no body is valid. `anyOf`
/// says what the handler does (schemathesis could not generate a body for the `oneOf`).
struct GrantBodies;

impl Modify for GrantBodies {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::schema::{AnyOf, Schema};
        use utoipa::openapi::RefOr;
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        if let Some(RefOr::T(Schema::OneOf(one_of))) = components.schemas.get("TokenRequestBody") {
            let mut any_of = AnyOf::new();
            any_of.items = one_of.items.clone();
            any_of.description = one_of.description.clone();
            components
                .schemas
                .insert("TokenRequestBody".into(), RefOr::T(Schema::AnyOf(any_of)));
        }
    }
}

/// The base document with every documented route's operation, then the modifiers that need the
/// operations in place.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = crate::api_router(false).split_for_parts();
    BearerAuth.modify(&mut doc);
    OptionalBodies.modify(&mut doc);
    GrantBodies.modify(&mut doc);
    CommonErrors.modify(&mut doc);
    doc
}

pub fn json() -> String {
    document()
        .to_pretty_json()
        .expect("the OpenAPI document serialises")
        + "\n"
}
