//! `KeyringStore` (feature `keyring`): the two tokens in the system keychain, the rest (user,
//! entitlement token, JWKS: nothing secret) in a [`FileStore`]. Windows caps a credential at
//! 2560 bytes, which the whole record could pass; the two tokens stay well under it.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::store::{FileStore, StoredSession, TokenStore};

const SERVICE: &str = "closewise-desktop";

pub struct KeyringStore {
    entry: keyring::Entry,
    rest: FileStore,
}

#[derive(Serialize, Deserialize)]
struct Secrets {
    refresh_token: String,
    access_token: String,
}

impl KeyringStore {
    /// One keychain entry per API (`account` is usually the base URL), the rest in `rest`.
    /// Fails when this system has no keychain the crate can speak to.
    pub fn new(account: &str, rest: FileStore) -> Result<KeyringStore> {
        let entry = keyring::Entry::new(SERVICE, account).map_err(keyring_error)?;
        // Reading once tells whether a keychain answers at all, so the caller can fall back.
        match entry.get_password() {
            Ok(_) | Err(keyring::Error::NoEntry) => Ok(KeyringStore { entry, rest }),
            Err(e) => Err(keyring_error(e)),
        }
    }
}

impl TokenStore for KeyringStore {
    fn load(&self) -> Result<Option<StoredSession>> {
        let Some(mut session) = self.rest.load()? else {
            return Ok(None);
        };
        let secrets = match self.entry.get_password() {
            Ok(json) => json,
            Err(keyring::Error::NoEntry) => return Ok(None),
            Err(e) => return Err(keyring_error(e)),
        };
        let secrets: Secrets =
            serde_json::from_str(&secrets).map_err(|e| Error::Store(e.to_string()))?;
        session.refresh_token = secrets.refresh_token;
        session.access_token = secrets.access_token;
        Ok(Some(session))
    }

    fn save(&self, session: &StoredSession) -> Result<()> {
        let secrets = Secrets {
            refresh_token: session.refresh_token.clone(),
            access_token: session.access_token.clone(),
        };
        let json = serde_json::to_string(&secrets).map_err(|e| Error::Store(e.to_string()))?;
        self.entry.set_password(&json).map_err(keyring_error)?;
        let mut rest = session.clone();
        rest.refresh_token.clear();
        rest.access_token.clear();
        self.rest.save(&rest)
    }

    fn clear(&self) -> Result<()> {
        match self.entry.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => {}
            Err(e) => return Err(keyring_error(e)),
        }
        self.rest.clear()
    }
}

fn keyring_error(e: keyring::Error) -> Error {
    Error::Store(format!("system keychain: {e}"))
}
