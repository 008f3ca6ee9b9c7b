//! A team's SAML connection: saved from the IdP's metadata, the sign-in sent to the IdP with our
//! AuthnRequest (its ID kept as the sign-in's nonce, the sign-in's state as RelayState), and the
//! ACS: the response checked (`saml::verify_response`), its assertion used once, the address at
//! one of the team's verified domains. The ACS does not sign anyone in: it records the address on
//! the sign-in and sends the browser to the callback, which finishes only in the browser that
//! started the sign-in (its state cookie), as OpenID sign-ins do. An unsolicited response, when
//! the owner accepts them, gets a sign-in of its own and that browser's cookie.

use closewise_domain::email::Email;
use closewise_domain::sso::{
    check_domain, login_expires_at, saml_acs_url, saml_sp_entity_id, Protocol,
};
use serde_json::json;
use uuid::Uuid;

use super::login::Failure;
use super::saml::{self, Expected, ResponseRefusal};
use super::{FetchError, SamlSettings, Sso, SsoError, SsoView};
use crate::actor::Actor;
use crate::sessions::opaque_tokens::{hash_token, random_token};
use crate::store::teams::sso::{NewSsoLogin, TeamSsoRow};
use crate::teams::TeamsError;

/// The stored certificates (DER) of a SAML connection.
pub(super) fn certificates_of(row: &TeamSsoRow) -> anyhow::Result<Vec<Vec<u8>>> {
    use base64::Engine;
    let list: Vec<String> = match &row.saml_certificates {
        Some(json) => serde_json::from_str(json)?,
        None => Vec::new(),
    };
    list.iter()
        .map(|b64| Ok(base64::engine::general_purpose::STANDARD.decode(b64)?))
        .collect()
}

/// Where the ACS sends the browser.
#[derive(Debug)]
pub enum AcsOutcome {
    /// To the callback with `state`: `set_state_cookie` when the sign-in is this response's own
    /// (an unsolicited one), so the browser that brought it finishes it.
    Callback {
        state: String,
        set_state_cookie: bool,
    },
}

impl Sso {
    /// `PUT /api/team/sso` with `protocol: "saml"`: reads the IdP's metadata (from its URL, under
    /// the provider reach, or as given), saves the connection in place of any other, audited; a
    /// connection that becomes required ends the password sessions as OpenID's does.
    pub async fn save_saml(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        s: &SamlSettings<'_>,
    ) -> Result<SsoView, SsoError> {
        let team_id = self.owned_team(actor, team).await?;
        let url = s.metadata_url.map(str::trim).filter(|u| !u.is_empty());
        let xml = s.metadata_xml.map(str::trim).filter(|x| !x.is_empty());
        if self.store.team_verified_domains(team_id).await?.is_empty() {
            return Err(SsoError::NoVerifiedDomain);
        }
        let document = match (url, xml) {
            (Some(url), None) => self.provider.metadata(url).await.map_err(|e| match e {
                FetchError::NotPublic => SsoError::IssuerNotPublic,
                FetchError::NotHttps => {
                    SsoError::InvalidSamlMetadata("The metadata URL must be an https URL.")
                }
                FetchError::Unusable(why) => SsoError::InvalidSamlMetadata(why),
                FetchError::Failed(cause) => {
                    tracing::warn!(team_id = %team_id, error = %format!("{cause:#}"), "SAML metadata fetch failed");
                    SsoError::InvalidSamlMetadata(
                        "Could not read the metadata URL. Check it and that the identity provider is reachable.",
                    )
                }
            })?,
            (None, Some(xml)) => xml.to_string(),
            _ => return Err(SsoError::SamlMetadataRequired),
        };
        let idp = saml::parse_idp_metadata(&document, self.reach)
            .map_err(|e| SsoError::InvalidSamlMetadata(e.0))?;
        let email_attribute = s
            .email_attribute
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(str::to_string);
        let before = self.store.team_sso(team_id).await?;
        let now = self.clock.now();
        use base64::Engine;
        let certificates: Vec<String> = idp
            .certificates
            .iter()
            .map(|der| base64::engine::general_purpose::STANDARD.encode(der))
            .collect();
        let row = TeamSsoRow {
            team_id,
            issuer: idp.entity_id.clone(),
            client_id: String::new(),
            client_secret_sealed: String::new(),
            authorization_endpoint: idp.sso_url.clone(),
            token_endpoint: String::new(),
            jwks_uri: String::new(),
            userinfo_endpoint: None,
            email_claim: closewise_domain::sso::EmailClaim::default()
                .as_str()
                .to_string(),
            required: s.required,
            created_at: before.as_ref().map_or(now, |b| b.created_at),
            updated_at: now,
            protocol: Protocol::Saml.as_str().to_string(),
            saml_certificates: Some(json!(certificates).to_string()),
            saml_metadata_url: url.map(str::to_string),
            saml_email_attribute: email_attribute.clone(),
            saml_idp_initiated: s.allow_idp_initiated,
        };
        let fingerprints: Vec<String> = idp
            .certificates
            .iter()
            .filter_map(|der| saml::certificate_info(der).ok())
            .map(|c| c.fingerprint)
            .collect();
        let audit = actor.audit(
            "team.sso.save",
            None,
            None,
            json!({
                "team_id": team_id,
                "protocol": "saml",
                "idp_entity_id": idp.entity_id,
                "sso_url": idp.sso_url,
                "certificates": fingerprints,
                "metadata_url": url,
                "email_attribute": email_attribute,
                "allow_idp_initiated": s.allow_idp_initiated,
                "required": s.required,
                "required_before": before.as_ref().is_some_and(|b| b.required),
            }),
            now,
        );
        self.store
            .save_team_sso(&row, actor.user_id(), &audit)
            .await?;
        if s.required && !before.as_ref().is_some_and(|b| b.required) {
            self.store.end_password_sessions(team_id, now).await?;
        }
        self.view_of(team_id).await
    }

    /// Our SP's metadata for `team_id` (`GET /api/auth/saml/{team_id}/metadata`).
    pub async fn sp_metadata(&self, team_id: Uuid) -> Result<String, SsoError> {
        if self.store.team_by_id(team_id).await?.is_none() {
            return Err(TeamsError::TeamNotFound.into());
        }
        Ok(saml::sp_metadata_xml(
            &saml_sp_entity_id(&self.base_url, team_id),
            &saml_acs_url(&self.base_url, team_id),
        ))
    }

    /// The IdP's URL for a SAML sign-in whose sign-in row has `state` and nonce `request_id`.
    pub(super) fn saml_request_url(
        &self,
        sso: &TeamSsoRow,
        request_id: &str,
        state: &str,
    ) -> Result<String, SsoError> {
        Ok(saml::authn_request_url(
            &sso.authorization_endpoint,
            request_id,
            &saml_sp_entity_id(&self.base_url, sso.team_id),
            &saml_acs_url(&self.base_url, sso.team_id),
            self.clock.now(),
            state,
        )?)
    }

    /// `POST /api/auth/saml/{team_id}/acs`: checks the response; the browser then goes to the
    /// callback (`AcsOutcome`). A refusal ends the sign-in it answered.
    pub async fn acs(
        &self,
        team_id: Uuid,
        saml_response: Option<&str>,
        relay_state: Option<&str>,
    ) -> Result<AcsOutcome, Failure> {
        let sso = self
            .store
            .team_sso(team_id)
            .await?
            .filter(|s| s.protocol == Protocol::Saml.as_str())
            .ok_or(SsoError::NotConfigured)?;
        let state_hash = relay_state.filter(|r| !r.is_empty()).map(hash_token);
        let login = match &state_hash {
            Some(h) => self
                .store
                .sso_login(h)
                .await?
                .filter(|l| l.team_id == team_id && l.saml_email.is_none()),
            None => None,
        };
        let now = self.clock.now();
        if login.as_ref().is_some_and(|l| now >= l.expires_at) {
            self.store
                .take_sso_login(state_hash.as_deref().unwrap_or_default())
                .await?;
            return Err(SsoError::LoginExpired.into());
        }
        if login.is_none() && !sso.saml_idp_initiated {
            return Err(SsoError::SamlUnsolicited.into());
        }
        let test = login.as_ref().is_some_and(|l| l.test);
        let checked = self
            .checked_address(
                &sso,
                saml_response,
                login.as_ref().map(|l| l.nonce.as_str()),
            )
            .await;
        let email = match checked {
            Ok(email) => email,
            Err(error) => {
                if let Some(h) = &state_hash {
                    self.store.take_sso_login(h).await?;
                }
                return Err(Failure { error, test });
            }
        };
        match (login, state_hash) {
            (Some(_), Some(h)) => {
                if !self
                    .store
                    .set_sso_login_saml_email(&h, email.as_str())
                    .await?
                {
                    return Err(SsoError::LoginExpired.into());
                }
                Ok(AcsOutcome::Callback {
                    state: relay_state.unwrap_or_default().to_string(),
                    set_state_cookie: false,
                })
            }
            _ => {
                let state = random_token();
                self.store
                    .insert_sso_login(&NewSsoLogin {
                        state_hash: &hash_token(&state),
                        team_id,
                        nonce: "",
                        pkce_verifier: "",
                        next_path: None,
                        test: false,
                        now,
                        expires_at: login_expires_at(now),
                        saml_email: Some(email.as_str()),
                    })
                    .await?;
                Ok(AcsOutcome::Callback {
                    state,
                    set_state_cookie: true,
                })
            }
        }
    }

    /// The response checked against the connection (and our request, when solicited), its
    /// assertion used once; the address it vouches for, at one of the team's verified domains.
    async fn checked_address(
        &self,
        sso: &TeamSsoRow,
        saml_response: Option<&str>,
        request_id: Option<&str>,
    ) -> Result<Email, SsoError> {
        let response = saml_response
            .filter(|r| !r.trim().is_empty())
            .ok_or_else(|| SsoError::InvalidSamlResponse("no SAMLResponse".into()))?
            .to_string();
        let certificates = certificates_of(sso)?;
        let sp_entity_id = saml_sp_entity_id(&self.base_url, sso.team_id);
        let acs_url = saml_acs_url(&self.base_url, sso.team_id);
        let idp_entity_id = sso.issuer.clone();
        let request_id = request_id.map(str::to_string);
        let email_attribute = sso.saml_email_attribute.clone();
        let now = self.clock.now();
        let verified = tokio::task::spawn_blocking(move || {
            saml::verify_response(
                &response,
                &Expected {
                    sp_entity_id: &sp_entity_id,
                    acs_url: &acs_url,
                    idp_entity_id: &idp_entity_id,
                    certificates: &certificates,
                    request_id: request_id.as_deref(),
                    email_attribute: email_attribute.as_deref(),
                    now,
                },
            )
        })
        .await
        .map_err(|e| anyhow::anyhow!("the SAML check did not finish: {e}"))?;
        let verified = verified.map_err(|refusal| {
            tracing::warn!(team_id = %sso.team_id, error = %refusal, "SAML response refused");
            match refusal {
                ResponseRefusal::Expired(_) => SsoError::SamlExpired,
                ResponseRefusal::Invalid(cause) => {
                    SsoError::InvalidSamlResponse(format!("{cause:#}"))
                }
            }
        })?;
        if !self
            .store
            .use_saml_assertion(sso.team_id, &verified.assertion_id, verified.expires_at)
            .await?
        {
            tracing::warn!(team_id = %sso.team_id, assertion = %verified.assertion_id, "SAML assertion replayed");
            return Err(SsoError::SamlReplayed);
        }
        let email = verified
            .address
            .as_deref()
            .and_then(|a| Email::parse(a).ok())
            .ok_or(SsoError::SamlNoAddress)?;
        let domains = self.store.team_verified_domains(sso.team_id).await?;
        check_domain(&email, &domains).map_err(SsoError::Identity)?;
        Ok(email)
    }
}
