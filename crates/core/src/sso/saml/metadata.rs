//! An IdP's metadata, as the owner gives it (its URL or the XML): one entity, its entity ID, its
//! SSO URL for the HTTP-Redirect binding and one or two signing certificates; and a certificate
//! described as the owner sees it (subject, expiry, fingerprint).

use std::str::FromStr;

use anyhow::{bail, Context};
use closewise_domain::sso::{provider_url, ProviderReach, MAX_SAML_CERTIFICATES};
use quick_xml::events::Event;
use samael::metadata::EntityDescriptor;
use time::OffsetDateTime;

use super::{MAX_XML_BYTES, REDIRECT_BINDING};

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

pub(super) fn refuse_dtd(xml: &str) -> anyhow::Result<()> {
    let mut reader = quick_xml::Reader::from_str(xml);
    loop {
        match reader.read_event()? {
            Event::DocType(_) => bail!("a DTD"),
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}
