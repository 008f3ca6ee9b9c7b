//! Where the download chooser's disk images live (`DOWNLOAD_BASE_URL`, `DESKTOP_VERSION`): run-time
//! settings, so one web build serves every environment.

use anyhow::{anyhow, bail};
use closewise_domain::downloads::{DesktopVersion, DEFAULT_DESKTOP_VERSION};

/// The path this server answers for release files when no release address is set (development).
pub const LOCAL_DOWNLOADS_PATH: &str = "/downloads";

#[derive(Clone, Debug)]
pub struct DownloadSettings {
    /// The release address the disk images are under, without a trailing slash; `None` when
    /// `DOWNLOAD_BASE_URL` is unset: then it is this server's own `/downloads` (which serves files
    /// from `DATA_DIR/downloads` and explains itself when they are missing).
    pub base_url: Option<String>,
    /// The desktop release the chooser offers, e.g. `v1.0.0`.
    pub version: DesktopVersion,
}

impl DownloadSettings {
    pub(super) fn from_lookup(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let raw_version = get("DESKTOP_VERSION").unwrap_or_else(|| DEFAULT_DESKTOP_VERSION.into());
        let version = DesktopVersion::parse(raw_version.trim())
            .map_err(|_| anyhow!("DESKTOP_VERSION must look like v1.2.3, not {raw_version:?}"))?;
        let base_url = match get("DOWNLOAD_BASE_URL") {
            Some(raw) => {
                let trimmed = raw.trim().trim_end_matches('/').to_owned();
                match url::Url::parse(&trimmed) {
                    Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => {}
                    _ => bail!(
                        "DOWNLOAD_BASE_URL must be an absolute http(s) URL (the desktop app's \
                         release address), not {raw:?}"
                    ),
                }
                Some(trimmed)
            }
            None => None,
        };
        Ok(DownloadSettings { base_url, version })
    }

    /// The release address: the configured one, or this server's own `/downloads`.
    pub fn release_base(&self, app_base_url: &str) -> String {
        match &self.base_url {
            Some(base) => base.clone(),
            None => format!("{app_base_url}{LOCAL_DOWNLOADS_PATH}"),
        }
    }

    /// What production refuses: no release address, or one that is not https.
    pub(super) fn check_production(&self) -> anyhow::Result<()> {
        let Some(base) = &self.base_url else {
            bail!(
                "DOWNLOAD_BASE_URL must be set in production: the desktop app's release address, \
                 e.g. https://github.com/closewise/closewise-desktop/releases/download"
            );
        };
        if !base.starts_with("https://") {
            bail!("DOWNLOAD_BASE_URL must be https in production");
        }
        Ok(())
    }
}
