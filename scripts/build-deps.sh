#!/usr/bin/env bash
# What building the workspace needs from Debian besides Rust: SAML's XML signature checks (the
# samael crate over libxmlsec1) link libxmlsec1 and libxml2, and samael's bindings are generated
# with libclang at build time. Installed with apt-get when missing (as root, or with sudo that asks
# for no password); otherwise the build stops here saying what to install.
set -euo pipefail
packages=(libxmlsec1-dev libclang-dev pkg-config)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ "${#missing[@]}" = 0 ] && exit 0
echo "==> installing ${missing[*]} (SAML's XML signatures: libxmlsec1, bindings made with libclang)"
sudo=""
if [ "$(id -u)" != 0 ]; then
  if sudo -n true 2>/dev/null; then sudo="sudo"; else
    echo "ERROR: the build needs ${missing[*]}: install them (apt-get install ${missing[*]})." >&2
    exit 1
  fi
fi
$sudo apt-get -o DPkg::Lock::Timeout=300 update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}"
