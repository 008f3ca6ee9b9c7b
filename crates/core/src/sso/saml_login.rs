//! Signing in through a team's SAML connection (saved by `connection`): our SP metadata, the
//! sign-in sent to the IdP with our AuthnRequest (its ID kept as the sign-in's nonce, the sign-in's state as RelayState), and the
//! ACS: the response checked (`saml::verify_response`), its assertion used once, the address at
//! one of the team's verified domains. The ACS does not sign anyone in: it records the address on
//! the sign-in and sends the browser to the callback, which finishes only in the browser that
//! started the sign-in (its state cookie), as OpenID sign-ins do. An unsolicited response, when
//! the owner accepts them, gets a sign-in of its own and that browser's cookie.

use closewise_domain::email::Email;
use closewise_domain::sso::{
    check_domain, login_expires_at, saml_acs_url, saml_sp_entity_id, Protocol,
};
use uuid::Uuid;

use super::login::Failure;
use super::saml::{self, Expected, ResponseRefusal};
use super::{Sso, SsoError};
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
        let state_hash = relay_state.filter(|r| !r.is_empty()).map(hash_token);
        let login = match &state_hash {
            Some(h) => self
                .store
                .sso_login(h)
                .await?
                .filter(|l| l.team_id == team_id && l.saml_email.is_none()),
            None => None,
        };
        let setup = login.as_ref().and_then(|l| l.setup_link_id);
        // A setup link's test sign-in is checked against the link's draft, not the connection.
        let sso = match setup {
            Some(link_id) => Some(self.link_draft(link_id).await?),
            None => self.store.team_sso(team_id).await?,
        };
        let sso = sso
            .filter(|s| s.protocol == Protocol::Saml.as_str())
            .ok_or(SsoError::NotConfigured)?;
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
                setup.is_none(),
            )
            .await;
        let email = match checked {
            Ok(email) => email,
            Err(error) => {
                if let Some(h) = &state_hash {
                    self.store.take_sso_login(h).await?;
                }
                if let Some(link_id) = setup {
                    return Err(self.setup_test_failed(link_id, error).await);
                }
                return Err(Failure {
                    error,
                    test,
                    setup: false,
                });
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
                        setup_link_id: None,
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
    /// `saved`: `sso` is the team's connection (a draft's certificate in use is not recorded).
    async fn checked_address(
        &self,
        sso: &TeamSsoRow,
        saml_response: Option<&str>,
        request_id: Option<&str>,
        saved: bool,
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
        let checked = tokio::task::spawn_blocking(move || {
            let expected = Expected {
                sp_entity_id: &sp_entity_id,
                acs_url: &acs_url,
                idp_entity_id: &idp_entity_id,
                certificates: &certificates,
                request_id: request_id.as_deref(),
                email_attribute: email_attribute.as_deref(),
                now,
            };
            let verified = saml::verify_response(&response, &expected)?;
            let signer = saml::signing_certificate(&response, &expected);
            let in_use = saml::certificate_info(&certificates[signer]).ok();
            Ok::<_, ResponseRefusal>((verified, in_use.map(|c| c.fingerprint)))
        })
        .await
        .map_err(|e| anyhow::anyhow!("the SAML check did not finish: {e}"))?;
        let (verified, in_use) = checked.map_err(|refusal| {
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
        if let Some(fingerprint) = in_use.filter(|_| saved) {
            self.store
                .set_saml_certificate_in_use(sso.team_id, &fingerprint)
                .await?;
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
