//! SAML 2.0 as a service provider: the IdP's metadata read (entity ID, HTTP-Redirect SSO URL,
//! signing certificates; `metadata`), our SP metadata and the AuthnRequest sent by the
//! HTTP-Redirect binding (unsigned: the IdP needs no key of ours; here), and a response checked
//! (`response`).

mod metadata;
mod response;

use anyhow::{anyhow, Context};
use samael::schema::{AuthnRequest, Issuer, NameIdPolicy};
use time::OffsetDateTime;

pub use metadata::{
    certificate_info, parse_idp_metadata, CertificateInfo, IdpMetadata, MetadataRefusal,
};
pub use response::{signing_certificate, verify_response, Expected, ResponseRefusal, Verified};

const ASSERTION_NS: &[u8] = b"urn:oasis:names:tc:SAML:2.0:assertion";
const REDIRECT_BINDING: &str = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const POST_BINDING: &str = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";
const BEARER: &str = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
const EMAIL_FORMAT: &str = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const UNSPECIFIED_FORMAT: &str = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified";
/// A metadata document or a response larger than this is refused unread.
pub const MAX_XML_BYTES: usize = 512 * 1024;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Our SP's metadata for a team: entity ID, the ACS (HTTP-POST), the NameID formats we read,
/// `WantAssertionsSigned`, and no key (we sign nothing and take no encrypted assertion).
pub fn sp_metadata_xml(entity_id: &str, acs_url: &str) -> String {
    format!(
        concat!(
            r#"<?xml version="1.0" encoding="UTF-8"?>"#,
            r#"<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="{entity}">"#,
            r#"<md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" "#,
            r#"protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">"#,
            r#"<md:NameIDFormat>{email}</md:NameIDFormat>"#,
            r#"<md:NameIDFormat>{unspecified}</md:NameIDFormat>"#,
            r#"<md:AssertionConsumerService Binding="{post}" Location="{acs}" index="0" isDefault="true"/>"#,
            r#"</md:SPSSODescriptor></md:EntityDescriptor>"#,
        ),
        entity = escape(entity_id),
        email = EMAIL_FORMAT,
        unspecified = UNSPECIFIED_FORMAT,
        post = POST_BINDING,
        acs = escape(acs_url),
    )
}

fn chrono_of(t: OffsetDateTime) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::from_timestamp(t.unix_timestamp(), t.nanosecond())
        .unwrap_or_else(chrono::Utc::now)
}

fn time_of(t: chrono::DateTime<chrono::Utc>) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(t.timestamp())
        .map(|s| s + time::Duration::nanoseconds(i64::from(t.timestamp_subsec_nanos())))
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// The IdP's URL with our AuthnRequest (HTTP-Redirect binding: deflated, base64, unsigned) and
/// `relay_state`.
pub fn authn_request_url(
    sso_url: &str,
    request_id: &str,
    sp_entity_id: &str,
    acs_url: &str,
    now: OffsetDateTime,
    relay_state: &str,
) -> anyhow::Result<String> {
    let request = AuthnRequest {
        id: request_id.to_string(),
        version: "2.0".to_string(),
        issue_instant: chrono_of(now),
        destination: Some(sso_url.to_string()),
        issuer: Some(Issuer {
            value: Some(sp_entity_id.to_string()),
            ..Issuer::default()
        }),
        name_id_policy: Some(NameIdPolicy {
            allow_create: Some(true),
            format: Some(EMAIL_FORMAT.to_string()),
            ..NameIdPolicy::default()
        }),
        assertion_consumer_service_url: Some(acs_url.to_string()),
        protocol_binding: Some(POST_BINDING.to_string()),
        ..AuthnRequest::default()
    };
    let url = request
        .redirect(relay_state)
        .map_err(|e| anyhow!("the AuthnRequest: {e}"))?
        .context("the AuthnRequest has no destination")?;
    Ok(url.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use samael::metadata::EntityDescriptor;
    use std::str::FromStr;

    #[test]
    fn our_metadata_names_the_entity_the_acs_and_wants_signed_assertions() {
        let xml = sp_metadata_xml(
            "https://app.example/api/auth/saml/t/metadata",
            "https://app.example/api/auth/saml/t/acs?x=1&y=2",
        );
        assert!(xml.contains(r#"entityID="https://app.example/api/auth/saml/t/metadata""#));
        assert!(xml.contains(r#"WantAssertionsSigned="true""#));
        assert!(xml.contains(r#"Location="https://app.example/api/auth/saml/t/acs?x=1&amp;y=2""#));
        assert!(
            EntityDescriptor::from_str(&xml).is_ok(),
            "well-formed metadata"
        );
    }
}
