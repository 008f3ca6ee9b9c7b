//! The desktop app's release files: which version the site offers and where each Mac's disk image
//! lives under a release address (`{base}/v1.0.0/Closewise-1.0.0-arm64.dmg`).

use std::fmt;

/// The release the site offers unless told otherwise (`DESKTOP_VERSION`).
pub const DEFAULT_DESKTOP_VERSION: &str = "v1.0.0";

/// The product name in the disk images' file names.
pub const PRODUCT_FILE_NAME: &str = "Closewise";

/// A desktop release tag such as `v1.0.0`: `v` and three whole numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesktopVersion(String);

#[derive(Debug, PartialEq, Eq)]
pub struct InvalidVersion;

impl fmt::Display for InvalidVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a desktop version looks like v1.2.3")
    }
}

impl std::error::Error for InvalidVersion {}

impl DesktopVersion {
    pub fn parse(raw: &str) -> Result<Self, InvalidVersion> {
        let rest = raw.strip_prefix('v').ok_or(InvalidVersion)?;
        let parts: Vec<&str> = rest.split('.').collect();
        let numeric =
            |p: &&str| !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit());
        if parts.len() == 3 && parts.iter().all(numeric) {
            Ok(DesktopVersion(raw.to_owned()))
        } else {
            Err(InvalidVersion)
        }
    }

    /// `v1.0.0`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `1.0.0`, as in the file names.
    pub fn bare(&self) -> &str {
        &self.0[1..]
    }
}

/// The two Mac builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacArch {
    /// Apple Silicon (M1 and newer).
    Arm64,
    /// Intel.
    X64,
}

impl MacArch {
    pub const ALL: [MacArch; 2] = [MacArch::Arm64, MacArch::X64];

    pub fn as_str(self) -> &'static str {
        match self {
            MacArch::Arm64 => "arm64",
            MacArch::X64 => "x64",
        }
    }
}

/// `Closewise-1.0.0-arm64.dmg`.
pub fn disk_image_name(version: &DesktopVersion, arch: MacArch) -> String {
    format!(
        "{PRODUCT_FILE_NAME}-{}-{}.dmg",
        version.bare(),
        arch.as_str()
    )
}

/// The disk image's address under a release address (trailing slashes ignored):
/// `{base}/v1.0.0/Closewise-1.0.0-arm64.dmg`.
pub fn disk_image_url(base: &str, version: &DesktopVersion, arch: MacArch) -> String {
    format!(
        "{}/{}/{}",
        base.trim_end_matches('/'),
        version.as_str(),
        disk_image_name(version, arch)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_v_and_three_numbers() {
        assert_eq!(DesktopVersion::parse("v1.0.0").unwrap().bare(), "1.0.0");
        assert_eq!(
            DesktopVersion::parse("v12.3.45").unwrap().as_str(),
            "v12.3.45"
        );
        for bad in [
            "1.0.0",
            "v1.0",
            "v1.0.0.0",
            "v1.0.x",
            "v1..0",
            "",
            "v",
            "v1.0.0-beta",
            "v1.0.0/../x",
        ] {
            assert_eq!(DesktopVersion::parse(bad), Err(InvalidVersion), "{bad}");
        }
        assert!(DesktopVersion::parse(DEFAULT_DESKTOP_VERSION).is_ok());
    }

    #[test]
    fn disk_images_are_named_by_version_and_chip() {
        let v = DesktopVersion::parse("v1.0.0").unwrap();
        assert_eq!(
            disk_image_name(&v, MacArch::Arm64),
            "Closewise-1.0.0-arm64.dmg"
        );
        assert_eq!(
            disk_image_url("https://github.com/closewise/closewise-desktop/releases/download/", &v, MacArch::X64),
            "https://github.com/closewise/closewise-desktop/releases/download/v1.0.0/Closewise-1.0.0-x64.dmg"
        );
    }
}
