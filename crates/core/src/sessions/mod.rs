//! Sessions: signing in (the password grant; the desktop app's browser and device sign-in in
//! `desktop`), refreshing, signing out, the Devices list, and the revocations every process hears
//! of (`auth_cache`, `revocation_listener`). The rules are the domain's
//! (`closewise_domain::tokens`, `closewise_domain::oauth`); the adapter signs an access token for
//! each `Session` returned, with `tokens::Keys`.
//!
//! | file | what |
//! |---|---|
//! | `desktop` | the desktop app's sign-in: authorization codes, device requests, device sessions |
//! | `sign_in` | the password grant and the mfa grant: budget, password, second factor, session |
//! | `password_sign_in` | the password checked, a session started |
//! | `passkey_sign_in` | a passkey (verified by `crate::passkeys`) starts the same session |
//! | `password_sign_in` | the password grant: the password checked, a session started |
//! | `sso_sign_in` | single sign-on (the ID token checked by its caller) starts a session stamped as SSO's |
//! | `refresh` | the refresh grant: rotation, the grace replay, reuse detection |
//! | `sign_out` | signing out this session or every session |
//! | `tokens` | the signing key: access and entitlement tokens, the JWKS |
//! | `opaque_tokens` | refresh tokens and e-mail links: random, stored hashed |
//! | `access` | the caller of an access token, through the cache |
//! | `auth_cache` | this process's cache of verified access tokens, emptied by revocations |
//! | `read_cache` | this process's cache of what a user's reads return, emptied by their writes |
//! | `revocation_listener` | PostgreSQL: other processes' revocations, into the cache |
//! | `error` | what the flows refuse |

mod access;
pub mod auth_cache;
pub mod desktop;
mod error;
pub mod opaque_tokens;
mod passkey_sign_in;
mod password_sign_in;
pub(crate) use password_sign_in::rehash_if_outdated;
pub mod read_cache;
mod refresh;
pub mod revocation_listener;
mod sign_in;
mod sign_out;
mod sso_sign_in;
pub mod tokens;

use std::sync::Arc;

use closewise_domain::tokens::DEFAULT_SESSION_MAX_AGE;
use time::Duration;
use uuid::Uuid;

use crate::clock::Clock;
use crate::mfa::Mfa;
use crate::password::Hasher;
use crate::store::{Store, UserRow};
use desktop::IssuedSession;

pub use error::SessionError;
pub use sign_in::SignedIn;
pub use sign_out::Credential;

/// A session just started or refreshed: the adapter signs an access token for `user` in
/// `session_id` and hands `refresh_token` over (never stored in clear).
#[derive(Debug)]
pub struct Session {
    pub user: UserRow,
    pub session_id: Uuid,
    pub refresh_token: String,
}

/// The configured longest session (`SESSION_MAX_AGE`) as the domain counts it; the default when it
/// does not fit.
pub fn max_age(configured: std::time::Duration) -> Duration {
    Duration::try_from(configured).unwrap_or(DEFAULT_SESSION_MAX_AGE)
}

#[derive(Clone)]
pub struct Sessions {
    store: Store,
    clock: Clock,
    hasher: Hasher,
    /// How long a session lives at most, refreshes included.
    max_age: Duration,
    /// The key a refresh token's successor is derived with (`opaque_tokens::successor_token`).
    refresh_key: Arc<[u8]>,
    /// Whether an account may sign in before confirming its address (development only).
    allow_unverified: bool,
    /// The second factor a password sign-in may need.
    mfa: Mfa,
    /// Access tokens checked before (`with_auth_cache`).
    auth_cache: Arc<auth_cache::AuthCache>,
}

impl Sessions {
    pub fn new(
        store: Store,
        clock: Clock,
        hasher: Hasher,
        max_age: Duration,
        refresh_key: &[u8],
        mfa: Mfa,
    ) -> Self {
        Sessions {
            mfa,
            store,
            clock,
            hasher,
            max_age,
            refresh_key: refresh_key.into(),
            allow_unverified: false,
            // Never live: serves nothing until `with_auth_cache` gives the store's.
            auth_cache: Arc::new(auth_cache::AuthCache::new(1, None, false)),
        }
    }

    /// Whether the access token's session (`sid` of `user_id`) still stands: signing out, a
    /// password reset and reuse detection end it at once, before the token expires.
    pub async fn is_active(&self, session_id: Uuid, user_id: Uuid) -> Result<bool, sqlx::Error> {
        self.store.session_is_active(session_id, user_id).await
    }

    /// The same service letting unconfirmed accounts sign in.
    pub fn allowing_unverified_signin(mut self, allow: bool) -> Self {
        self.allow_unverified = allow;
        self
    }

    /// The session the desktop app's sign-in just started, with its user.
    pub async fn issued(&self, issued: IssuedSession) -> Result<Session, SessionError> {
        let user = self
            .store
            .user_by_id(issued.user_id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("the session's user is gone"))?;
        Ok(Session {
            user,
            session_id: issued.session_id,
            refresh_token: issued.refresh_token,
        })
    }
}
