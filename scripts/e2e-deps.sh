#!/usr/bin/env bash
# What the end-to-end suite needs besides the builds: Debian's Chromium (installed with apt-get when
# missing; never Playwright's own download) and e2e/'s packages from its lock file (npm ci when
# missing or older than the lock). `--background` (./just test runs it so from the start, where
# nothing may ask for a password): installs Chromium only as root or with sudo that needs no password,
# and otherwise leaves it to the suite's own run.
set -euo pipefail
cd "$(dirname "$0")/.."
chromium="${E2E_CHROMIUM:-/usr/bin/chromium}"

background=""
[ "${1:-}" = --background ] && background=1
if [ -n "$background" ] && [ "$(id -u)" != 0 ] && ! sudo -n true 2>/dev/null; then
  echo "==> not installing $chromium in the background (sudo would ask for a password); the e2e run will"
elif [ ! -x "$chromium" ]; then
  echo "==> $chromium is missing: installing Debian's chromium"
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "ERROR: $chromium is missing and this user cannot run apt-get (no root, no sudo). Install chromium or set E2E_CHROMIUM." >&2
      exit 1
    fi
  fi
  if ! { $sudo apt-get -o DPkg::Lock::Timeout=300 update && DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y chromium; }; then
    echo "ERROR: installing chromium with apt-get failed; the end-to-end suite cannot run without a browser." >&2
    exit 1
  fi
  if [ ! -x "$chromium" ]; then
    echo "ERROR: apt-get installed chromium but $chromium is still missing; set E2E_CHROMIUM to its path." >&2
    exit 1
  fi
fi

if [ ! -d e2e/node_modules ] || [ e2e/package-lock.json -nt e2e/node_modules/.package-lock.json ]; then
  echo "==> installing e2e/ packages (npm ci)"
  (cd e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi
