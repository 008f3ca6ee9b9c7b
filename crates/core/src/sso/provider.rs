//! Talking to an OpenID provider: its discovery document (read when the owner saves), the token
//! endpoint (the authorization code with its PKCE verifier, the client authenticated with
//! `client_secret_basic`), its UserInfo endpoint and its JWKS (the ID token is checked in
//! `id_token`); and a SAML IdP's metadata URL, fetched the same way.
//!
//! Every fetch resolves the provider's host itself and connects only to the addresses it checked
//! (`closewise_domain::sso::ProviderReach`: in production public ones only), so a name that
//! resolves elsewhere the second time (DNS rebinding) reaches nothing new. What a provider answers
//! never reaches the caller's error text: the cause is logged, the error says which step failed.

use std::time::Duration;

use anyhow::{anyhow, Context};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use jsonwebtoken::jwk::JwkSet;
use serde::Deserialize;

use closewise_domain::sso::{provider_url, IssuerError, ProviderReach};

use super::id_token::UserInfo;

/// The endpoints a discovery document names.
#[derive(Clone, Debug, Deserialize)]
pub struct Discovery {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
    #[serde(default)]
    pub userinfo_endpoint: Option<String>,
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
}

/// What the token endpoint answers.
#[derive(Clone, Debug)]
pub struct Tokens {
    pub id_token: String,
    pub access_token: Option<String>,
}

/// Why a provider's document could not be had.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// The URL, or an address its host resolves to, is not one the server may reach.
    #[error("the provider's address is not one we may connect to")]
    NotPublic,
    /// The URL is not an https one (or http on this machine, in development).
    #[error("the provider's URL is not https")]
    NotHttps,
    /// Unreachable, an error status, or not what the step expects: the cause, to log only.
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
    /// Read, but the document does not hold (another issuer, no PKCE with S256): a fixed reason.
    #[error("{0}")]
    Unusable(&'static str),
}

#[derive(Clone)]
pub struct Provider {
    reach: ProviderReach,
}

impl Provider {
    pub fn new(reach: ProviderReach) -> Self {
        Provider { reach }
    }

    /// A client for one fetch of `raw`: the URL checked under the reach, its host resolved here
    /// and every address checked, the connection pinned to those addresses.
    async fn client_for(&self, raw: &str) -> Result<(reqwest::Client, url::Url), FetchError> {
        let url = provider_url(raw, self.reach).map_err(|e| match e {
            IssuerError::NotPublic => FetchError::NotPublic,
            IssuerError::NotHttps => FetchError::NotHttps,
            IssuerError::Invalid => FetchError::Failed(anyhow!("{raw:?} is not a URL")),
        })?;
        let mut builder = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none());
        if let Some(url::Host::Domain(name)) = url.host() {
            let port = url.port_or_known_default().unwrap_or(443);
            let addrs: Vec<std::net::SocketAddr> = tokio::net::lookup_host((name, port))
                .await
                .with_context(|| format!("cannot resolve {name}"))?
                .collect();
            if addrs.is_empty() {
                return Err(anyhow!("{name} resolves to no address").into());
            }
            if addrs.iter().any(|a| !self.reach.allows(a.ip())) {
                return Err(FetchError::NotPublic);
            }
            builder = builder.resolve_to_addrs(name, &addrs);
        }
        let client = builder.build().context("a reqwest client with rustls")?;
        Ok((client, url))
    }

    /// The issuer's discovery document; its `issuer` must be the issuer exactly (OpenID Connect
    /// Discovery §4.3), it must offer PKCE's S256 when it lists methods, and its endpoints must be
    /// URLs we may fetch.
    pub async fn discover(&self, issuer: &str) -> Result<Discovery, FetchError> {
        let (http, url) = self
            .client_for(&format!("{issuer}/.well-known/openid-configuration"))
            .await?;
        let d: Discovery = http
            .get(url.clone())
            .send()
            .await
            .with_context(|| format!("cannot reach {url}"))?
            .error_for_status()
            .with_context(|| format!("{url} answered an error"))?
            .json()
            .await
            .with_context(|| format!("{url} is not a discovery document"))?;
        if d.issuer.trim_end_matches('/') != issuer {
            tracing::warn!(issuer, named = %d.issuer, "the discovery document names another issuer");
            return Err(FetchError::Unusable(
                "The provider's discovery document names another issuer: enter the issuer exactly as your provider names it.",
            ));
        }
        if let Some(methods) = &d.code_challenge_methods_supported {
            if !methods.iter().any(|m| m == "S256") {
                return Err(FetchError::Unusable(
                    "The provider does not offer PKCE with S256, which single sign-on needs.",
                ));
            }
        }
        let userinfo = d.userinfo_endpoint.iter();
        for endpoint in [&d.authorization_endpoint, &d.token_endpoint, &d.jwks_uri]
            .into_iter()
            .chain(userinfo)
        {
            match closewise_domain::sso::parse_issuer(endpoint, self.reach) {
                Ok(_) => {}
                Err(IssuerError::NotPublic) => return Err(FetchError::NotPublic),
                Err(_) => {
                    return Err(FetchError::Unusable(
                        "An endpoint the provider's discovery document names is not an https URL.",
                    ))
                }
            }
        }
        Ok(d)
    }

    /// Redeems `code` at the token endpoint: the ID token, and the access token for UserInfo.
    pub async fn exchange(
        &self,
        token_endpoint: &str,
        client_id: &str,
        client_secret: &str,
        code: &str,
        redirect_uri: &str,
        verifier: &str,
    ) -> Result<Tokens, FetchError> {
        #[derive(Deserialize)]
        struct TokenResponse {
            id_token: Option<String>,
            access_token: Option<String>,
        }
        // RFC 6749 §2.3.1: both form-encoded, then HTTP Basic.
        let enc = |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
        let basic = STANDARD.encode(format!("{}:{}", enc(client_id), enc(client_secret)));
        let (http, url) = self.client_for(token_endpoint).await?;
        let answer = http
            .post(url)
            .header("authorization", format!("Basic {basic}"))
            .form(&[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("redirect_uri", redirect_uri),
                ("code_verifier", verifier),
            ])
            .send()
            .await
            .context("cannot reach the provider's token endpoint")?;
        let status = answer.status();
        if !status.is_success() {
            let body = answer.text().await.unwrap_or_default();
            return Err(anyhow!(
                "the token endpoint answered {status}: {}",
                body.chars().take(300).collect::<String>()
            )
            .into());
        }
        let t: TokenResponse = answer.json().await.context("the token endpoint's answer")?;
        Ok(Tokens {
            id_token: t.id_token.context("the token endpoint sent no id_token")?,
            access_token: t.access_token,
        })
    }

    /// The UserInfo endpoint's claims for `access_token` (a JSON answer; a signed one is not
    /// asked for).
    pub async fn userinfo(
        &self,
        endpoint: &str,
        access_token: &str,
    ) -> Result<UserInfo, FetchError> {
        let (http, url) = self.client_for(endpoint).await?;
        Ok(http
            .get(url)
            .bearer_auth(access_token)
            .header("accept", "application/json")
            .send()
            .await
            .context("cannot reach the provider's UserInfo endpoint")?
            .error_for_status()
            .context("the provider's UserInfo endpoint answered an error")?
            .json()
            .await
            .context("the provider's UserInfo answer is not JSON claims")?)
    }

    /// A SAML IdP's metadata document at `url` (at most `saml::MAX_XML_BYTES`).
    pub async fn metadata(&self, url: &str) -> Result<String, FetchError> {
        let (http, url) = self.client_for(url).await?;
        let mut answer = http
            .get(url.clone())
            .send()
            .await
            .with_context(|| format!("cannot reach {url}"))?
            .error_for_status()
            .with_context(|| format!("{url} answered an error"))?;
        let mut body = Vec::new();
        while let Some(chunk) = answer.chunk().await.context("reading the metadata")? {
            body.extend_from_slice(&chunk);
            if body.len() > super::saml::MAX_XML_BYTES {
                return Err(FetchError::Unusable("The metadata is larger than 512 KB."));
            }
        }
        Ok(String::from_utf8(body).context("the metadata is not UTF-8")?)
    }

    /// The provider's signing keys.
    pub async fn jwks(&self, jwks_uri: &str) -> Result<JwkSet, FetchError> {
        let (http, url) = self.client_for(jwks_uri).await?;
        Ok(http
            .get(url)
            .send()
            .await
            .context("cannot reach the provider's JWKS")?
            .error_for_status()
            .context("the provider's JWKS answered an error")?
            .json()
            .await
            .context("the provider's JWKS is not a key set")?)
    }
}
