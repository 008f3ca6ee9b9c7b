//! Files the server keeps for itself (the JWT signing key, the MFA encryption key): created once,
//! readable by their owner only.

use std::path::Path;

use anyhow::Context;

/// Creates `path` with `bytes`, mode `0600` on Unix; fails when it already exists.
#[cfg(unix)]
pub fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(bytes)?;
    Ok(())
}

/// Creates `path` with `bytes`.
#[cfg(not(unix))]
pub fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot create {}", path.display()))
}
