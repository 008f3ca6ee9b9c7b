#!/usr/bin/env bash
# The SSO tests' identity providers (panva's oidc-provider in crates/testkit/oidc, samlify's SAML
# IdP in crates/testkit/saml, used by the API's Rust tests and the e2e specs), installed from their
# lock files when missing or stale: once, before tests that run in parallel processes would each
# try to.
set -euo pipefail
cd "$(dirname "$0")/.."
for idp in crates/testkit/oidc crates/testkit/saml; do
  if [ ! -d "$idp/node_modules" ] || [ "$idp/package-lock.json" -nt "$idp/node_modules/.package-lock.json" ]; then
    echo "==> installing $idp packages (npm ci)"
    (cd "$idp" && npm ci --no-audit --no-fund)
  fi
done
