//! Passkeys (WebAuthn): a signed-in user registers them (named), lists and removes
//! them; anyone asks for a sign-in challenge and answers it with a discoverable passkey (no
//! password), or with the passkey of an `mfa_token`'s account as the second factor.
//!
//! Challenges live in the store (every replica agrees): random 32 bytes, single use, 5 minutes
//! (`closewise_domain::passkeys::CHALLENGE_TTL`), bound to a purpose and, but for a discoverable
//! sign-in, to a user. A challenge is spent by the first answer, right or wrong. The relying party
//! is `APP_BASE_URL`'s host and origin. Verification is `webauthn`'s; the sign counter's rule is
//! the domain's. Every refusal is one `InvalidPasskey` (the reason goes to the log), so an answer
//! never tells which check failed or whose passkey it was.
//!
//! | file | what |
//! |---|---|
//! | `webauthn` | verifying registration and authentication responses (pure) |
//! | `options` | the creation and request options, WebAuthn L3 JSON |
//! | `mfa_token` | a passkey as the second factor of a password sign-in's `mfa_token` |
//! | `error` | what the flows refuse |

mod error;
pub mod mfa_token;
mod options;
pub mod webauthn;

use closewise_domain::passkeys::{
    challenge_expiry, passkey_name, sign_count_acceptable, user_verification_required, PasskeyUse,
    RelyingParty,
};
use rand::RngCore;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::clock::Clock;
use crate::mail::{Composer, Template};
use crate::store::passkeys::{ChallengeRow, NewChallenge, PasskeyRow};
use crate::store::Store;
use webauthn::{b64, b64_encode, AuthenticationResponse, RegistrationResponse};

pub use error::PasskeyError;
pub use options::ChallengeOptions;

/// What a challenge is for: a challenge of one purpose answers no other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Register,
    SignIn,
    StepUp,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Register => "register",
            Purpose::SignIn => "sign_in",
            Purpose::StepUp => "step_up",
        }
    }
}

/// A sign-in answer for no known account (a discoverable sign-in) stands alone; one for a known
/// account follows its password (an `mfa_token`, step-up).
fn passkey_use(purpose: Purpose, user_id: Option<Uuid>) -> PasskeyUse {
    match (purpose, user_id) {
        (Purpose::Register, _) => PasskeyUse::Register,
        (_, None) => PasskeyUse::StandAlone,
        (_, Some(_)) => PasskeyUse::SecondFactor,
    }
}

/// Where the mails send the reader: the Security section of Settings.
const SECURITY_PAGE: &str = "/settings#security";

#[derive(Clone)]
pub struct Passkeys {
    store: Store,
    clock: Clock,
    mail: Composer,
    rp: RelyingParty,
}

impl Passkeys {
    /// `None` when `base_url` is not an http(s) URL with a host (configuration refuses that first).
    pub fn new(store: Store, clock: Clock, mail: Composer, base_url: &str) -> Option<Self> {
        Some(Passkeys {
            rp: RelyingParty::from_base_url(base_url)?,
            store,
            clock,
            mail,
        })
    }

    pub fn relying_party(&self) -> &RelyingParty {
        &self.rp
    }

    async fn issue_challenge(
        &self,
        purpose: Purpose,
        user_id: Option<Uuid>,
    ) -> Result<(Uuid, String), PasskeyError> {
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        let challenge = b64_encode(&bytes);
        let id = Uuid::now_v7();
        let now = self.clock.now();
        self.store
            .create_webauthn_challenge(&NewChallenge {
                id,
                purpose: purpose.as_str(),
                user_id,
                challenge: &challenge,
                created_at: now,
                expires_at: challenge_expiry(now),
            })
            .await?;
        Ok((id, challenge))
    }

    /// Spends the challenge `challenge_id` of `purpose`: `InvalidPasskey` when it is malformed,
    /// unknown, of another purpose or spent; `ChallengeExpired` after its 5 minutes.
    async fn spend_challenge(
        &self,
        challenge_id: &str,
        purpose: Purpose,
    ) -> Result<ChallengeRow, PasskeyError> {
        let id = Uuid::parse_str(challenge_id.trim())
            .map_err(|_| PasskeyError::invalid("malformed challenge id"))?;
        let now = self.clock.now();
        let row = self
            .store
            .take_webauthn_challenge(id, purpose.as_str(), now)
            .await?
            .ok_or_else(|| PasskeyError::invalid("unknown or spent challenge"))?;
        if now >= row.expires_at {
            return Err(PasskeyError::ChallengeExpired);
        }
        Ok(row)
    }

    /// Options to create a passkey for `user_id`, named `name` (checked here, stored on finish).
    pub async fn registration_options(
        &self,
        user_id: Uuid,
        name: &str,
    ) -> Result<ChallengeOptions, PasskeyError> {
        passkey_name(name).map_err(PasskeyError::InvalidName)?;
        let user = self
            .store
            .user_by_id(user_id)
            .await?
            .ok_or(PasskeyError::NotSignedIn)?;
        let existing = self.store.passkeys_of(user_id).await?;
        let (id, challenge) = self
            .issue_challenge(Purpose::Register, Some(user_id))
            .await?;
        Ok(options::creation(
            &self.rp, id, &challenge, &user, &existing,
        ))
    }

    /// Verifies the browser's answer to a registration challenge of `user_id` (with user
    /// verification: a passkey may stand alone later) and stores the passkey, mailing the account; the session `session_id` that registered it has given the
    /// factor (as confirming an app does), so its step-up window stays open. A credential
    /// registered already (here or to another account) is refused and nothing changes.
    pub async fn register(
        &self,
        user_id: Uuid,
        session_id: Uuid,
        challenge_id: &str,
        name: &str,
        credential: serde_json::Value,
    ) -> Result<PasskeyRow, PasskeyError> {
        let name = passkey_name(name).map_err(PasskeyError::InvalidName)?;
        let credential: RegistrationResponse = serde_json::from_value(credential)
            .map_err(|_| PasskeyError::invalid("not a RegistrationResponseJSON"))?;
        let challenge = self
            .spend_challenge(challenge_id, Purpose::Register)
            .await?;
        if challenge.user_id != Some(user_id) {
            return Err(PasskeyError::invalid("another account's challenge"));
        }
        let uv = user_verification_required(PasskeyUse::Register);
        let new = webauthn::verify_registration(&self.rp, &challenge.challenge, &credential, uv)?;
        let user = self
            .store
            .user_by_id(user_id)
            .await?
            .ok_or(PasskeyError::NotSignedIn)?;
        let now = self.clock.now();
        let row = PasskeyRow {
            id: Uuid::now_v7(),
            user_id,
            credential_id: b64_encode(&new.credential_id),
            name: name.clone(),
            public_key: b64_encode(&new.public_key),
            sign_count: i64::from(new.sign_count),
            created_at: now,
            last_used_at: None,
        };
        let link = self.mail.page(SECURITY_PAGE);
        let mail = self
            .mail
            .compose(&user.email, Template::PasskeyAdded { name, link }, now);
        if !self.store.insert_passkey(&row, &mail).await? {
            return Err(PasskeyError::invalid("credential registered already"));
        }
        self.store.stamp_mfa(session_id, user_id, now).await?;
        Ok(row)
    }

    pub async fn list(&self, user_id: Uuid) -> Result<Vec<PasskeyRow>, PasskeyError> {
        Ok(self.store.passkeys_of(user_id).await?)
    }

    /// Removes the user's passkey `id` and mails the account; `NotFound` for another's or none.
    pub async fn remove(&self, user_id: Uuid, id: Uuid) -> Result<(), PasskeyError> {
        let (Some(row), Some(user)) = (
            self.store.passkey_of(user_id, id).await?,
            self.store.user_by_id(user_id).await?,
        ) else {
            return Err(PasskeyError::NotFound);
        };
        let link = self.mail.page(SECURITY_PAGE);
        let template = Template::PasskeyRemoved {
            name: row.name,
            link,
        };
        let mail = self.mail.compose(&user.email, template, self.clock.now());
        if !self.store.delete_passkey(user_id, id, &mail).await? {
            return Err(PasskeyError::NotFound);
        }
        Ok(())
    }

    /// Options to sign in: for anyone (`user_id` `None`: no allowCredentials, the browser offers
    /// the discoverable passkeys it has for us, and user verification is required) or for one
    /// account's passkeys (second factor, step-up), bound to that account.
    pub async fn request_options(
        &self,
        purpose: Purpose,
        user_id: Option<Uuid>,
    ) -> Result<ChallengeOptions, PasskeyError> {
        let allowed = match user_id {
            Some(u) => self.store.passkeys_of(u).await?,
            None => Vec::new(),
        };
        let (id, challenge) = self.issue_challenge(purpose, user_id).await?;
        let uv = user_verification_required(passkey_use(purpose, user_id));
        Ok(options::request(&self.rp, id, &challenge, &allowed, uv))
    }

    /// Verifies an answer to a sign-in (or step-up) challenge and records the passkey's use;
    /// the account it signs in. `expected_user`: the account whose passkey it must be (the
    /// `mfa_token`'s, the signed-in caller's); `None` for a discoverable sign-in, which stands
    /// alone and so needs user verification (the UV flag).
    pub async fn authenticate(
        &self,
        purpose: Purpose,
        challenge_id: &str,
        credential: serde_json::Value,
        expected_user: Option<Uuid>,
    ) -> Result<Uuid, PasskeyError> {
        let credential: AuthenticationResponse = serde_json::from_value(credential)
            .map_err(|_| PasskeyError::invalid("not an AuthenticationResponseJSON"))?;
        let challenge = self.spend_challenge(challenge_id, purpose).await?;
        let credential_id = b64_encode(&credential.credential_id()?);
        let passkey = self
            .store
            .passkey_by_credential(&credential_id)
            .await?
            .ok_or_else(|| PasskeyError::invalid("unknown credential"))?;
        let owner = Some(passkey.user_id);
        if expected_user.is_some_and(|u| Some(u) != owner)
            || challenge.user_id.is_some_and(|u| Some(u) != owner)
        {
            return Err(PasskeyError::invalid("another account's passkey"));
        }
        let key = b64(&passkey.public_key)?;
        let owner_known = expected_user.or(challenge.user_id);
        let uv = user_verification_required(passkey_use(purpose, owner_known));
        let assertion =
            webauthn::verify_assertion(&self.rp, &challenge.challenge, &credential, &key, uv)?;
        if assertion
            .user_handle
            .is_some_and(|h| h.as_slice() != passkey.user_id.as_bytes())
        {
            return Err(PasskeyError::invalid("user handle of another account"));
        }
        let stored = u32::try_from(passkey.sign_count).unwrap_or(u32::MAX);
        if !sign_count_acceptable(stored, assertion.sign_count) {
            tracing::warn!(passkey = %passkey.id, stored, presented = assertion.sign_count,
                "passkey sign counter did not go up: a cloned authenticator?");
            return Err(PasskeyError::invalid("sign counter went backwards"));
        }
        let now: OffsetDateTime = self.clock.now();
        let recorded = self
            .store
            .record_passkey_use(
                passkey.id,
                passkey.sign_count,
                i64::from(assertion.sign_count),
                now,
            )
            .await?;
        if !recorded {
            return Err(PasskeyError::invalid("another sign-in recorded first"));
        }
        Ok(passkey.user_id)
    }
}
