//! Where the session lives between runs: behind [`TokenStore`], so the app can keep it in the
//! system keychain. [`MemoryStore`] for tests and short-lived tools, [`FileStore`] a JSON file
//! readable by its owner only.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Everything the client keeps: one record, saved whole.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StoredSession {
    pub refresh_token: String,
    pub access_token: String,
    /// Unix seconds when `access_token` expires.
    pub expires_at: i64,
    pub user_id: String,
    pub email: String,
    /// The last entitlement token that verified, for answering offline.
    #[serde(default)]
    pub entitlement_token: Option<String>,
    /// The latest time (Unix seconds) this client has seen: its clock or a token's `iat`. Offline
    /// answers use the later of it and the clock, so setting the clock back does not stretch the
    /// grace period. (The server's keys are no longer kept here: they are pinned, see `trust`.)
    #[serde(default)]
    pub highest_seen: i64,
}

impl std::fmt::Debug for StoredSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredSession")
            .field("expires_at", &self.expires_at)
            .field("user_id", &self.user_id)
            .field("email", &self.email)
            .field("has_entitlement", &self.entitlement_token.is_some())
            .finish_non_exhaustive()
    }
}

/// Keeps the session. Calls are short and synchronous; the client runs them off the async
/// runtime's worker threads (`spawn_blocking`), so a keychain prompt does not stall it.
pub trait TokenStore: Send + Sync + 'static {
    fn load(&self) -> Result<Option<StoredSession>>;
    fn save(&self, session: &StoredSession) -> Result<()>;
    fn clear(&self) -> Result<()>;
}

/// A store shared with someone else (the app's settings screen, a test).
impl<T: TokenStore + ?Sized> TokenStore for std::sync::Arc<T> {
    fn load(&self) -> Result<Option<StoredSession>> {
        (**self).load()
    }
    fn save(&self, session: &StoredSession) -> Result<()> {
        (**self).save(session)
    }
    fn clear(&self) -> Result<()> {
        (**self).clear()
    }
}

/// A store chosen at run time (the keychain, or a file when there is none).
impl<T: TokenStore + ?Sized> TokenStore for Box<T> {
    fn load(&self) -> Result<Option<StoredSession>> {
        (**self).load()
    }
    fn save(&self, session: &StoredSession) -> Result<()> {
        (**self).save(session)
    }
    fn clear(&self) -> Result<()> {
        (**self).clear()
    }
}

/// A store in memory: gone when the process ends.
#[derive(Default)]
pub struct MemoryStore(Mutex<Option<StoredSession>>);

impl MemoryStore {
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
}

impl TokenStore for MemoryStore {
    fn load(&self) -> Result<Option<StoredSession>> {
        Ok(self.0.lock().expect("store lock").clone())
    }
    fn save(&self, session: &StoredSession) -> Result<()> {
        *self.0.lock().expect("store lock") = Some(session.clone());
        Ok(())
    }
    fn clear(&self) -> Result<()> {
        *self.0.lock().expect("store lock") = None;
        Ok(())
    }
}

/// A JSON file, created `0600` (owner only) on Unix in a `0700` folder, replaced atomically.
pub struct FileStore {
    path: PathBuf,
}

impl FileStore {
    pub fn new(path: impl Into<PathBuf>) -> FileStore {
        FileStore { path: path.into() }
    }

    /// `<config dir>/closewise/desktop-session.json`: `$XDG_CONFIG_HOME` or `~/.config` on Linux,
    /// `~/Library/Application Support` on macOS, `%APPDATA%` on Windows.
    pub fn default_path() -> Option<PathBuf> {
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let base = if cfg!(windows) {
            env("APPDATA")
        } else if cfg!(target_os = "macos") {
            env("HOME").map(|h| h.join("Library/Application Support"))
        } else {
            env("XDG_CONFIG_HOME").or_else(|| env("HOME").map(|h| h.join(".config")))
        }?;
        Some(base.join("closewise").join("desktop-session.json"))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl TokenStore for FileStore {
    fn load(&self) -> Result<Option<StoredSession>> {
        match std::fs::read(&self.path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| Error::Store(format!("{} is not readable: {e}", self.path.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(store_error(&self.path, e)),
        }
    }

    fn save(&self, session: &StoredSession) -> Result<()> {
        let json = serde_json::to_vec_pretty(session).map_err(|e| Error::Store(e.to_string()))?;
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            create_private_dir(dir).map_err(|e| store_error(dir, e))?;
        }
        let tmp = self.path.with_extension("json.tmp");
        write_private(&tmp, &json).map_err(|e| store_error(&tmp, e))?;
        std::fs::rename(&tmp, &self.path).map_err(|e| store_error(&self.path, e))
    }

    fn clear(&self) -> Result<()> {
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(store_error(&self.path, e)),
            _ => Ok(()),
        }
    }
}

fn store_error(path: &Path, e: std::io::Error) -> Error {
    Error::Store(format!("{}: {e}", path.display()))
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

#[cfg(unix)]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    // `mode` applies only when the file is created; a leftover file keeps its old mode otherwise.
    f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    f.write_all(bytes)?;
    f.sync_all()
}

#[cfg(not(unix))]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> StoredSession {
        StoredSession {
            refresh_token: "refresh-secret".into(),
            access_token: "access-secret".into(),
            expires_at: 1_795_000_000,
            user_id: "0193-user".into(),
            email: "ana@example.com".into(),
            entitlement_token: Some("eyJ.x.y".into()),
            highest_seen: 0,
        }
    }

    fn temp_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cw-desktop-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_store_gives_back_what_it_saved_and_nothing_after_clear() {
        let dir = temp_dir();
        let store = FileStore::new(dir.join("nested/session.json"));
        assert_eq!(store.load().unwrap(), None);
        store.save(&session()).unwrap();
        assert_eq!(store.load().unwrap(), Some(session()));
        let mut next = session();
        next.refresh_token = "rotated".into();
        store.save(&next).unwrap();
        assert_eq!(store.load().unwrap(), Some(next));
        store.clear().unwrap();
        store.clear().unwrap();
        assert_eq!(store.load().unwrap(), None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_session_file_is_readable_by_its_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir();
        let path = dir.join("cfg/session.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{}").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        FileStore::new(&path).save(&session()).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);

        let fresh = dir.join("new/session.json");
        FileStore::new(&fresh).save(&session()).unwrap();
        let dir_mode = std::fs::metadata(fresh.parent().unwrap())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(dir_mode & 0o777, 0o700);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_corrupt_file_is_a_store_error_not_a_silent_sign_out() {
        let dir = temp_dir();
        std::fs::write(dir.join("s.json"), "not json").unwrap();
        assert!(matches!(
            FileStore::new(dir.join("s.json")).load(),
            Err(Error::Store(_))
        ));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn tokens_never_show_in_debug_output() {
        let shown = format!("{:?}", session());
        assert!(!shown.contains("secret"), "{shown}");
    }

    #[test]
    fn a_memory_store_round_trips() {
        let store = MemoryStore::new();
        store.save(&session()).unwrap();
        assert_eq!(store.load().unwrap(), Some(session()));
        store.clear().unwrap();
        assert_eq!(store.load().unwrap(), None);
    }
}
