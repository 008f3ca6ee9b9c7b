//! Signing in through the team's provider: `discover` tells the sign-in page whether an address
//! signs in by SSO, `start` stores the sign-in (hashed state, nonce, PKCE verifier, where to land;
//! any replica finishes it) and sends the browser to the provider (a SAML IdP: with our
//! AuthnRequest, `saml_login`), `callback` takes the sign-in
//! once, redeems the code, checks the ID token (its claims completed from UserInfo when a
//! conformant provider left them out), then makes the account and the membership on the
//! first sign-in (a free seat needed, nothing made without one) and starts the session.

use closewise_domain::email::Email;
use closewise_domain::limits::return_path;
use closewise_domain::oauth::s256_challenge;
use closewise_domain::sso::{check_identity, login_expires_at, EmailClaim, Protocol};
use uuid::Uuid;

use super::id_token::verify_id_token;
use super::{Sso, SsoError};
use crate::sessions::opaque_tokens::{hash_token, random_token};
use crate::sessions::Session;
use crate::store::teams::seats::AcceptOutcome;
use crate::store::teams::sso::{NewSsoLogin, NewSsoUser, SsoLoginRow, TeamSsoRow};
use crate::teams::TeamsError;

/// Where a sign-in lands when it names no page of ours.
const DEFAULT_NEXT: &str = "/dashboard";

/// A sign-in on its way: send the browser to `authorization_url`.
#[derive(Debug)]
pub struct Started {
    pub authorization_url: String,
    /// The state the callback brings back; the adapter also keeps it in the browser (a cookie) so
    /// that only the browser that started a sign-in finishes it.
    pub state: String,
}

/// The end of a callback.
#[derive(Debug)]
pub enum Finished {
    /// Signed in: the session, and the page of ours to land on.
    SignedIn { session: Session, next: String },
    /// The owner's "Test connection" passed: every check held, nobody was signed in or created.
    Tested,
    /// A setup link's test sign-in passed: its draft is the team's connection now; nobody was
    /// signed in or created.
    SetupTested,
}

/// A callback refused: the error, and whether it was the owner's test or a setup link's.
#[derive(Debug)]
pub struct Failure {
    pub error: SsoError,
    pub test: bool,
    /// A setup link's test sign-in (its result is stored on the link).
    pub setup: bool,
}

impl From<SsoError> for Failure {
    fn from(error: SsoError) -> Self {
        Failure {
            error,
            test: false,
            setup: false,
        }
    }
}

impl From<crate::store::DbError> for Failure {
    fn from(e: crate::store::DbError) -> Self {
        SsoError::from(e).into()
    }
}

impl Sso {
    /// Whether `email`'s domain signs in by SSO (a team verified it and has a connection).
    pub async fn discover(&self, email: &Email) -> Result<bool, SsoError> {
        Ok(self.store.sso_team_at(email.domain()).await?.is_some())
    }

    /// Starts a sign-in for `email` (its domain picks the team); `test` is the owner's "Test
    /// connection". `next` is kept when it is a path of this site.
    pub async fn start(
        &self,
        email: &Email,
        next: Option<&str>,
        test: bool,
    ) -> Result<Started, SsoError> {
        let team_id = self
            .store
            .sso_team_at(email.domain())
            .await?
            .ok_or(SsoError::NoSsoForDomain)?;
        let sso = self
            .store
            .team_sso(team_id)
            .await?
            .ok_or(SsoError::NoSsoForDomain)?;
        self.begin(&sso, email, next.and_then(return_path), test, None)
            .await
    }

    /// Stores the sign-in through `sso` (the team's connection, or a setup link's draft when
    /// `setup_link` names the link) and builds the provider's URL.
    pub(super) async fn begin(
        &self,
        sso: &TeamSsoRow,
        email: &Email,
        next: Option<&str>,
        test: bool,
        setup_link: Option<Uuid>,
    ) -> Result<Started, SsoError> {
        let saml = sso.protocol == Protocol::Saml.as_str();
        let (state, nonce) = (random_token(), random_token());
        // SAML: the nonce is the AuthnRequest's ID (an NCName: a letter first); no PKCE.
        let (nonce, verifier) = match saml {
            true => (format!("_{nonce}"), String::new()),
            false => (nonce, random_token()),
        };
        let now = self.clock.now();
        self.store
            .insert_sso_login(&NewSsoLogin {
                state_hash: &hash_token(&state),
                team_id: sso.team_id,
                nonce: &nonce,
                pkce_verifier: &verifier,
                next_path: next,
                test,
                now,
                expires_at: login_expires_at(now),
                saml_email: None,
                setup_link_id: setup_link,
            })
            .await?;
        if saml {
            return Ok(Started {
                authorization_url: self.saml_request_url(sso, &nonce, &state)?,
                state,
            });
        }
        let mut url = url::Url::parse(&sso.authorization_endpoint)
            .map_err(|e| anyhow::anyhow!("the stored authorization endpoint: {e}"))?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &sso.client_id)
            .append_pair("redirect_uri", &self.redirect_uri())
            .append_pair("scope", "openid email profile")
            .append_pair("state", &state)
            .append_pair("nonce", &nonce)
            .append_pair("code_challenge", &s256_challenge(&verifier))
            .append_pair("code_challenge_method", "S256")
            .append_pair("login_hint", email.as_str());
        Ok(Started {
            authorization_url: url.into(),
            state,
        })
    }

    /// The provider's redirect back: `state` and `code`, or `error`.
    pub async fn callback(
        &self,
        state: Option<&str>,
        code: Option<&str>,
        error: Option<&str>,
        user_agent: Option<&str>,
        ip: Option<&str>,
    ) -> Result<Finished, Failure> {
        let login = match state {
            Some(s) => self.store.take_sso_login(&hash_token(s)).await?,
            None => None,
        };
        let Some(login) = login.filter(|l| self.clock.now() < l.expires_at) else {
            return Err(SsoError::LoginExpired.into());
        };
        let checked = self.checked_email(&login, code, error).await;
        if let Some(link_id) = login.setup_link_id {
            return self.finish_setup_test(link_id, checked).await;
        }
        let test = login.test;
        let fail = |error: SsoError| Failure {
            error,
            test,
            setup: false,
        };
        let email = checked.map_err(fail)?;
        if test {
            return Ok(Finished::Tested);
        }
        let user_id = self.join(login.team_id, &email).await.map_err(fail)?;
        let session = self
            .sessions
            .sso_sign_in(user_id, user_agent, ip)
            .await
            .map_err(|e| fail(e.into()))?;
        let next = login
            .next_path
            .as_deref()
            .and_then(return_path)
            .unwrap_or(DEFAULT_NEXT)
            .to_string();
        tracing::info!(team_id = %login.team_id, user_id = %user_id, "signed in by SSO");
        Ok(Finished::SignedIn { session, next })
    }

    /// The address a callback vouches for: the one the ACS recorded (SAML), or the ID token's.
    async fn checked_email(
        &self,
        login: &SsoLoginRow,
        code: Option<&str>,
        error: Option<&str>,
    ) -> Result<Email, SsoError> {
        match &login.saml_email {
            // SAML: the ACS verified the response and recorded the address.
            Some(address) => {
                Email::parse(address).map_err(|_| anyhow::anyhow!("a stored SAML address").into())
            }
            // A SAML sign-in the ACS has not finished: the IdP's answer never came.
            None if login.pkce_verifier.is_empty() => Err(SsoError::ProviderDenied),
            None => {
                let code = match (code, error) {
                    (Some(code), None) if !code.is_empty() => code,
                    _ => return Err(SsoError::ProviderDenied),
                };
                let sso = match login.setup_link_id {
                    Some(link_id) => self.link_draft(link_id).await?,
                    None => self
                        .store
                        .team_sso(login.team_id)
                        .await?
                        .ok_or(SsoError::NotConfigured)?,
                };
                self.verified_email(login, &sso, code).await
            }
        }
    }

    /// Redeems the code and checks the ID token: the address it vouches for, at one of the
    /// team's verified domains.
    async fn verified_email(
        &self,
        login: &SsoLoginRow,
        sso: &TeamSsoRow,
        code: &str,
    ) -> Result<Email, SsoError> {
        let secret = self
            .secrets
            .open(login.team_id, &sso.client_secret_sealed)?;
        let secret = String::from_utf8(secret).map_err(|e| anyhow::anyhow!(e))?;
        let invalid = |e: anyhow::Error| {
            tracing::warn!(team_id = %login.team_id, error = %format!("{e:#}"), "SSO sign-in refused");
            SsoError::InvalidIdToken(format!("{e:#}"))
        };
        let tokens = self
            .provider
            .exchange(
                &sso.token_endpoint,
                &sso.client_id,
                &secret,
                code,
                &self.redirect_uri(),
                &login.pkce_verifier,
            )
            .await
            .map_err(|e| invalid(anyhow::anyhow!("the token endpoint: {e:#}")))?;
        let jwks = self
            .provider
            .jwks(&sso.jwks_uri)
            .await
            .map_err(|e| invalid(anyhow::anyhow!("the provider's JWKS: {e:#}")))?;
        let mut claims = verify_id_token(
            &tokens.id_token,
            &jwks,
            &sso.issuer,
            &sso.client_id,
            &login.nonce,
        )
        .map_err(invalid)?;
        let claim = EmailClaim::parse(&sso.email_claim).unwrap_or_default();
        if claims.lacks(claim) {
            if let (Some(endpoint), Some(access_token)) =
                (&sso.userinfo_endpoint, &tokens.access_token)
            {
                let info = self
                    .provider
                    .userinfo(endpoint, access_token)
                    .await
                    .map_err(|e| invalid(anyhow::anyhow!("the provider's UserInfo: {e:#}")))?;
                claims = claims.with_userinfo(info).map_err(invalid)?;
            }
        }
        let email = claims
            .address(claim)
            .and_then(|e| Email::parse(e).ok())
            .ok_or_else(|| {
                tracing::warn!(team_id = %login.team_id, claim = claim.as_str(), "no address in the SSO claim");
                SsoError::EmailClaimMissing(claim)
            })?;
        let domains = self.store.team_verified_domains(login.team_id).await?;
        check_identity(&email, claims.email_verified, claim, &domains)
            .map_err(SsoError::Identity)?;
        Ok(email)
    }

    /// The account of `email` as a member of the team, made on the first sign-in.
    async fn join(&self, team_id: Uuid, email: &Email) -> Result<Uuid, SsoError> {
        // One retry: an account signed up between our read and the insert is found the second time.
        for _ in 0..2 {
            let existing = self.store.user_by_email(email.as_str()).await?;
            // Nobody knows this password: a new account signs in by SSO, and an unconfirmed one
            // loses the password whoever signed the address up chose.
            let hash = self.hasher.unusable_hash()?;
            let new = NewSsoUser {
                id: existing.as_ref().map_or_else(Uuid::now_v7, |u| u.id),
                email: email.as_str(),
                password_hash: &hash,
                plan_id: Uuid::now_v7(),
                by_directory: false,
            };
            match self
                .store
                .sso_join(team_id, &new, self.clock.now(), None)
                .await?
            {
                AcceptOutcome::Joined => {
                    let user = self.store.user_by_email(email.as_str()).await?;
                    return Ok(user
                        .ok_or_else(|| anyhow::anyhow!("the member is gone"))?
                        .id);
                }
                AcceptOutcome::Spent => continue,
                AcceptOutcome::AlreadyInTeam => return Err(SsoError::OtherTeam),
                AcceptOutcome::NoTeam => return Err(SsoError::NotConfigured),
                AcceptOutcome::Deactivated => {
                    return Err(SsoError::Team(TeamsError::DeactivatedByDirectory))
                }
                AcceptOutcome::Refused(_) => {
                    let team = self.store.team_by_id(team_id).await?;
                    let total = team.map_or(0, |t| t.seats());
                    return Err(SsoError::NoFreeSeat { total });
                }
            }
        }
        Err(anyhow::anyhow!("the account changed twice during its first SSO sign-in").into())
    }
}
