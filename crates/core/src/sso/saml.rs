//! SAML 2.0 as a service provider: the IdP's metadata read (entity ID, HTTP-Redirect SSO URL,
//! signing certificates), our SP metadata, the AuthnRequest sent by the HTTP-Redirect binding
//! (unsigned: the IdP needs no key of ours), and a response checked.
//!
//! Signatures are checked by `samael` over libxmlsec1 (an XML security library, never by hand):
//! every signature in the response must verify with one of the configured certificates (the key
//! in the document's own KeyInfo is not trusted), and what no verified signature covers is dropped
//! before the response is read, so a signed element moved elsewhere (signature wrapping) cannot
//! carry an unsigned assertion. Before that, the document must hold exactly one assertion, no
//! encrypted one and no DTD. `samael` also checks the response's Destination, InResponseTo,
//! Issuer and status and the assertion's issuer, audience and conditions; then, with our clock:
//! the assertion's audience is ours (required, not only when present), its Conditions window
//! holds with [`SAML_CLOCK_SKEW`], and a bearer SubjectConfirmation names our ACS as Recipient,
//! has not expired and answers our request (an unsolicited response answers none).

use std::str::FromStr;

use anyhow::{anyhow, bail, Context};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use closewise_domain::sso::{
    provider_url, saml_window_holds, ProviderReach, MAX_SAML_CERTIFICATES, SAML_CLOCK_SKEW,
};
use quick_xml::events::Event;
use quick_xml::name::ResolveResult;
use samael::metadata::EntityDescriptor;
use samael::schema::{AuthnRequest, Issuer, NameIdPolicy};
use samael::service_provider::ServiceProvider;
use time::OffsetDateTime;

const ASSERTION_NS: &[u8] = b"urn:oasis:names:tc:SAML:2.0:assertion";
const REDIRECT_BINDING: &str = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const POST_BINDING: &str = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";
const BEARER: &str = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
const EMAIL_FORMAT: &str = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const UNSPECIFIED_FORMAT: &str = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified";
/// A metadata document or a response larger than this is refused unread.
pub const MAX_XML_BYTES: usize = 512 * 1024;

/// What an IdP's metadata tells us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdpMetadata {
    pub entity_id: String,
    /// Its SingleSignOnService for the HTTP-Redirect binding.
    pub sso_url: String,
    /// Its signing certificates, DER.
    pub certificates: Vec<Vec<u8>>,
}

/// Why metadata cannot be used: a fixed reason shown to the owner.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MetadataRefusal(pub &'static str);

/// Reads an IdP's metadata: one entity, its entity ID, an SSO URL for the HTTP-Redirect binding
/// (https; http only on this machine in development) and one or two signing certificates.
pub fn parse_idp_metadata(xml: &str, reach: ProviderReach) -> Result<IdpMetadata, MetadataRefusal> {
    if xml.len() > MAX_XML_BYTES {
        return Err(MetadataRefusal("The metadata is larger than 512 KB."));
    }
    refuse_dtd(xml)
        .map_err(|_| MetadataRefusal("The metadata is not well-formed XML without a DTD."))?;
    let entity = EntityDescriptor::from_str(xml)
        .map_err(|_| MetadataRefusal("This is not SAML metadata (an EntityDescriptor)."))?;
    let entity_id = entity
        .entity_id
        .clone()
        .filter(|e| !e.trim().is_empty())
        .ok_or(MetadataRefusal("The metadata names no entity ID."))?;
    let descriptors =
        entity
            .idp_sso_descriptors
            .filter(|d| !d.is_empty())
            .ok_or(MetadataRefusal(
                "The metadata describes no identity provider (IDPSSODescriptor).",
            ))?;
    let sso_url = descriptors
        .iter()
        .flat_map(|d| d.single_sign_on_services.iter())
        .find(|s| s.binding == REDIRECT_BINDING)
        .map(|s| s.location.trim().to_string())
        .ok_or(MetadataRefusal(
            "The identity provider offers no single sign-on URL for the HTTP-Redirect binding.",
        ))?;
    let url = provider_url(&sso_url, ProviderReach::Local)
        .map_err(|_| MetadataRefusal("The single sign-on URL must be an https URL."))?;
    if reach == ProviderReach::PublicOnly && url.scheme() != "https" {
        return Err(MetadataRefusal(
            "The single sign-on URL must be an https URL.",
        ));
    }
    let keys: Vec<_> = descriptors
        .iter()
        .flat_map(|d| d.key_descriptors.iter())
        .collect();
    let signing: Vec<_> = keys
        .iter()
        .filter(|k| k.key_use.as_deref() == Some("signing"))
        .collect();
    let chosen = if signing.is_empty() {
        keys.iter()
            .filter(|k| k.key_use.as_deref().is_none_or(str::is_empty))
            .collect()
    } else {
        signing
    };
    let mut certificates: Vec<Vec<u8>> = Vec::new();
    for key in chosen {
        for cert in key
            .key_info
            .x509_data
            .iter()
            .flat_map(|d| d.certificates.iter())
        {
            let der = samael::crypto::decode_x509_cert(cert)
                .ok()
                .filter(|der| openssl::x509::X509::from_der(der).is_ok())
                .ok_or(MetadataRefusal(
                    "A signing certificate in the metadata cannot be read.",
                ))?;
            if !certificates.contains(&der) {
                certificates.push(der);
            }
        }
    }
    if certificates.is_empty() {
        return Err(MetadataRefusal(
            "The metadata holds no signing certificate.",
        ));
    }
    if certificates.len() > MAX_SAML_CERTIFICATES {
        return Err(MetadataRefusal(
            "The metadata holds more than two signing certificates: keep the one in use and its successor.",
        ));
    }
    Ok(IdpMetadata {
        entity_id: entity_id.trim().to_string(),
        sso_url,
        certificates,
    })
}

/// A certificate as the owner sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertificateInfo {
    pub subject: String,
    pub not_after: OffsetDateTime,
    /// SHA-256 of the DER, hex, upper case with colons (as IdP consoles show it).
    pub fingerprint: String,
}

pub fn certificate_info(der: &[u8]) -> anyhow::Result<CertificateInfo> {
    let cert = openssl::x509::X509::from_der(der).context("a stored certificate")?;
    let subject = cert
        .subject_name()
        .entries()
        .map(|e| {
            let key = e.object().nid().short_name().unwrap_or("?");
            let value = String::from_utf8_lossy(e.data().as_slice()).into_owned();
            format!("{key}={value}")
        })
        .collect::<Vec<_>>()
        .join(", ");
    let epoch = openssl::asn1::Asn1Time::from_unix(0)?;
    let diff = epoch.diff(cert.not_after())?;
    let seconds = i64::from(diff.days) * 86_400 + i64::from(diff.secs);
    let not_after = OffsetDateTime::from_unix_timestamp(seconds)?;
    let digest = openssl::sha::sha256(der);
    let fingerprint = digest
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":");
    Ok(CertificateInfo {
        subject,
        not_after,
        fingerprint,
    })
}

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

/// What a response must be for this team and sign-in.
pub struct Expected<'a> {
    pub sp_entity_id: &'a str,
    pub acs_url: &'a str,
    pub idp_entity_id: &'a str,
    pub certificates: &'a [Vec<u8>],
    /// Our AuthnRequest's ID; None: an unsolicited (IdP-initiated) response, which then must not
    /// claim to answer a request.
    pub request_id: Option<&'a str>,
    /// The attribute carrying the address; None: the NameID.
    pub email_attribute: Option<&'a str>,
    pub now: OffsetDateTime,
}

/// A response that held.
#[derive(Clone, Debug)]
pub struct Verified {
    pub assertion_id: String,
    /// Until when the assertion could be presented: its ID is kept as used until then.
    pub expires_at: OffsetDateTime,
    /// The NameID, or the configured attribute's first value.
    pub address: Option<String>,
}

/// Why a response was refused, for the person (a code) and the log (the cause).
#[derive(Debug, thiserror::Error)]
pub enum ResponseRefusal {
    /// Its time window is over (or not begun).
    #[error("the assertion is not valid now: {0}")]
    Expired(String),
    /// Any other check.
    #[error("{0:#}")]
    Invalid(anyhow::Error),
}

impl From<anyhow::Error> for ResponseRefusal {
    fn from(e: anyhow::Error) -> Self {
        ResponseRefusal::Invalid(e)
    }
}

fn refuse_dtd(xml: &str) -> anyhow::Result<()> {
    let mut reader = quick_xml::Reader::from_str(xml);
    loop {
        match reader.read_event()? {
            Event::DocType(_) => bail!("a DTD"),
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

/// The document's assertions: (plain, encrypted); a DTD is refused.
fn count_assertions(xml: &str) -> anyhow::Result<(usize, usize)> {
    let mut reader = quick_xml::NsReader::from_str(xml);
    let (mut plain, mut encrypted) = (0, 0);
    loop {
        let (ns, event) = reader
            .read_resolved_event()
            .context("the response is not well-formed XML")?;
        match event {
            Event::DocType(_) => bail!("the response has a DTD"),
            Event::Start(e) | Event::Empty(e) => {
                if let ResolveResult::Bound(ns) = ns {
                    if ns.as_ref() == ASSERTION_NS {
                        match e.local_name().as_ref() {
                            b"Assertion" => plain += 1,
                            b"EncryptedAssertion" => encrypted += 1,
                            _ => {}
                        }
                    }
                }
            }
            Event::Eof => return Ok((plain, encrypted)),
            _ => {}
        }
    }
}

fn idp_entity(idp_entity_id: &str, certificates: &[Vec<u8>]) -> anyhow::Result<EntityDescriptor> {
    let keys: String = certificates
        .iter()
        .map(|der| {
            format!(
                r#"<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>{}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>"#,
                STANDARD.encode(der)
            )
        })
        .collect();
    let xml = format!(
        r#"<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="{}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">{keys}</md:IDPSSODescriptor></md:EntityDescriptor>"#,
        escape(idp_entity_id)
    );
    EntityDescriptor::from_str(&xml).map_err(|e| anyhow!("the IdP's stored entity: {e}"))
}

/// Checks a response (the ACS's `SAMLResponse`, base64) as the module says. Blocking (libxml2
/// and libxmlsec1): run it off the async workers.
pub fn verify_response(saml_response: &str, e: &Expected<'_>) -> Result<Verified, ResponseRefusal> {
    let compact: String = saml_response.split_whitespace().collect();
    if compact.len() > MAX_XML_BYTES * 4 / 3 + 4 {
        return Err(anyhow!("the response is larger than 512 KB").into());
    }
    let bytes = STANDARD
        .decode(compact)
        .context("SAMLResponse is not base64")?;
    let xml = String::from_utf8(bytes).context("the response is not UTF-8")?;
    match count_assertions(&xml)? {
        (_, encrypted) if encrypted > 0 => {
            return Err(anyhow!("encrypted assertions are not accepted").into())
        }
        (1, 0) => {}
        (n, _) => return Err(anyhow!("the response holds {n} assertions, not one").into()),
    }
    if e.certificates.is_empty() {
        return Err(anyhow!("no IdP certificate is configured").into());
    }
    let sp = ServiceProvider {
        entity_id: Some(e.sp_entity_id.to_string()),
        acs_url: Some(e.acs_url.to_string()),
        idp_metadata: idp_entity(e.idp_entity_id, e.certificates)?,
        allow_idp_initiated: e.request_id.is_none(),
        max_clock_skew: chrono::Duration::seconds(SAML_CLOCK_SKEW.whole_seconds()),
        max_issue_delay: chrono::Duration::minutes(3),
        ..ServiceProvider::default()
    };
    let ids: Vec<&str> = e.request_id.into_iter().collect();
    let assertion = sp
        .parse_xml_response(&xml, Some(&ids))
        .map_err(|err| match err {
            samael::service_provider::Error::AssertionExpired { .. }
            | samael::service_provider::Error::ResponseExpired { .. }
            | samael::service_provider::Error::AssertionConditionExpired { .. }
            | samael::service_provider::Error::AssertionConditionExpiredBefore { .. } => {
                ResponseRefusal::Expired(err.to_string())
            }
            err => ResponseRefusal::Invalid(anyhow!("{err}")),
        })?;
    if assertion.issuer.value.as_deref() != Some(e.idp_entity_id) {
        return Err(anyhow!("the assertion's issuer is not the IdP").into());
    }
    let conditions = assertion
        .conditions
        .as_ref()
        .context("the assertion has no Conditions")?;
    let ours = conditions
        .audience_restrictions
        .iter()
        .flatten()
        .any(|r| r.audience.iter().any(|a| a == e.sp_entity_id));
    if !ours {
        return Err(anyhow!("the assertion's audience is not us").into());
    }
    if let Some(end) = conditions.not_on_or_after {
        if !saml_window_holds(
            e.now,
            conditions.not_before.map(time_of),
            Some(time_of(end)),
        ) {
            return Err(ResponseRefusal::Expired("Conditions".into()));
        }
    } else if conditions
        .not_before
        .is_some_and(|nb| e.now < time_of(nb) - SAML_CLOCK_SKEW)
    {
        return Err(ResponseRefusal::Expired("Conditions NotBefore".into()));
    }
    let subject = assertion
        .subject
        .as_ref()
        .context("the assertion has no Subject")?;
    let mut bearer_until = None;
    let mut expired = false;
    for confirmation in subject.subject_confirmations.iter().flatten() {
        if confirmation.method.as_deref() != Some(BEARER) {
            continue;
        }
        let Some(data) = &confirmation.subject_confirmation_data else {
            continue;
        };
        if data.recipient.as_deref() != Some(e.acs_url) {
            continue;
        }
        if data.in_response_to.as_deref() != e.request_id {
            continue;
        }
        let Some(end) = data.not_on_or_after.map(time_of) else {
            continue;
        };
        if !saml_window_holds(e.now, data.not_before.map(time_of), Some(end)) {
            expired = true;
            continue;
        }
        bearer_until = Some(end);
        break;
    }
    let Some(bearer_until) = bearer_until else {
        if expired {
            return Err(ResponseRefusal::Expired("SubjectConfirmationData".into()));
        }
        return Err(anyhow!(
            "no bearer SubjectConfirmation for our ACS (Recipient) answering this sign-in (InResponseTo)"
        )
        .into());
    };
    let conditions_end = conditions
        .not_on_or_after
        .map(time_of)
        .unwrap_or(bearer_until);
    let expires_at = bearer_until.max(conditions_end) + SAML_CLOCK_SKEW;
    let address = match e.email_attribute {
        None => subject.name_id.as_ref().map(|n| n.value.trim().to_string()),
        Some(name) => assertion
            .attribute_statements
            .iter()
            .flatten()
            .flat_map(|s| s.attributes.iter())
            .filter(|a| a.name.as_deref() == Some(name) || a.friendly_name.as_deref() == Some(name))
            .flat_map(|a| a.values.iter())
            .find_map(|v| v.value.as_ref().map(|v| v.trim().to_string())),
    };
    Ok(Verified {
        assertion_id: assertion.id.clone(),
        expires_at,
        address,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_document_with_two_assertions_or_a_dtd_is_refused_before_any_signature() {
        let one = r#"<p:Response xmlns:p="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:a="urn:oasis:names:tc:SAML:2.0:assertion"><a:Assertion ID="x"/></p:Response>"#;
        assert_eq!(count_assertions(one).unwrap(), (1, 0));
        let two = r#"<p:Response xmlns:p="urn:oasis:names:tc:SAML:2.0:protocol"><x:Extensions xmlns:x="urn:x"><Assertion xmlns="urn:oasis:names:tc:SAML:2.0:assertion" ID="y"/></x:Extensions><a:Assertion xmlns:a="urn:oasis:names:tc:SAML:2.0:assertion" ID="x"/></p:Response>"#;
        assert_eq!(count_assertions(two).unwrap(), (2, 0));
        let other_ns = r#"<p:Response xmlns:p="urn:x"><Assertion/></p:Response>"#;
        assert_eq!(count_assertions(other_ns).unwrap(), (0, 0));
        let dtd = r#"<!DOCTYPE r [<!ENTITY e "x">]><r/>"#;
        assert!(count_assertions(dtd).is_err());
        assert!(refuse_dtd(dtd).is_err());
    }
}
