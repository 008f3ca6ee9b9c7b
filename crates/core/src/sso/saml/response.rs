//! A SAML response checked for one team and sign-in.
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
use closewise_domain::sso::{saml_window_holds, SAML_CLOCK_SKEW};
use quick_xml::events::Event;
use quick_xml::name::ResolveResult;
use samael::metadata::EntityDescriptor;
use samael::service_provider::ServiceProvider;
use time::OffsetDateTime;

use super::{escape, time_of, ASSERTION_NS, BEARER, MAX_XML_BYTES};

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

/// Which of `e.certificates` signed a response [`verify_response`] accepted: the first when it
/// alone verifies the response, else the second (during a rotation). Blocking, as that is.
pub fn signing_certificate(saml_response: &str, e: &Expected<'_>) -> usize {
    if e.certificates.len() < 2 {
        return 0;
    }
    let first = Expected {
        certificates: &e.certificates[..1],
        ..*e
    };
    match verify_response(saml_response, &first) {
        Ok(_) => 0,
        Err(_) => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(super::super::metadata::refuse_dtd(dtd).is_err());
    }
}
