# Closewise — the recipes people use. Start with `./just --list`.
set shell := ["bash", "-euo", "pipefail", "-c"]

# Build and start the whole product on local defaults at http://localhost:8080.
up:
    scripts/up.sh

# Every test, as CI runs it: formatting, lints, Rust tests on SQLite and PostgreSQL, the web's tests, the end-to-end suite;
# each recipe's wall time printed and written to target/test-times.txt (npm packages and Chromium installed in the
# background, resilience and SCIM side by side: see scripts/test.sh).
test:
    scripts/test.sh

# The inner loop (about two minutes): formatting, clippy and unit tests of the crates the change touches; for the web the
# type check, the changed files' lint and formatting, and Vitest's related tests. `./just test` before you push.
check:
    scripts/check.sh

# Formatting and lints (no changes made).
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# Test's lint stage: `lint`'s checks, clippy's compiled into the debug build the later suites run (scripts/lint-build.sh).
lint-build:
    scripts/lint-build.sh

# Rust unit and integration tests with cargo-nextest (installed the first time; groups and retries in
# .config/nextest.toml), then the doctests; every API test runs on SQLite and on PostgreSQL.
# Its debug build is the one every later suite starts (scripts/debug-build.sh).
[positional-arguments]
test-rust *ARGS: postgres
    scripts/test-rust.sh "$@"

# Bad input: schemathesis (all checks) against the real API from its OpenAPI document; the rest of
# the resilience suite (`--test resilience`) runs in test-rust.
test-resilience:
    scripts/resilience.sh

# SCIM conformance: scim2-tester (RFC 7643/7644) against /scim/v2 of a throw-away server, as the
# identity providers' directories provision through it; fails on any failed check.
test-scim:
    scripts/scim-conformance.sh

# Benchmarks (figures, not pass/fail): wrk against a release build on SQLite and PostgreSQL.
bench: postgres
    scripts/bench.sh

# stripe-mock driven by Stripe's official Node library (npm `stripe`, pinned) through a subscription's whole life,
# then by its official Python library (PyPI `stripe`, pinned): coupons, promotion codes, tax IDs, taxed invoices.
test-stripe-node:
    scripts/debug-build.sh
    STRIPE_MOCK_BIN="$(realpath -m "${CARGO_TARGET_DIR:-target}")/debug/stripe-mock" crates/stripe-mock/node-compat/run.sh
    STRIPE_MOCK_BIN="$(realpath -m "${CARGO_TARGET_DIR:-target}")/debug/stripe-mock" crates/stripe-mock/python-compat/run.sh

# The web app: install from the lock file, type-check, ESLint and Prettier (import boundaries
# included; side by side, scripts/web-static.sh), unit tests, production build, and the prerendered
# HTML checked without JavaScript (headings, titles, canonicals, sitemap, links).
test-web: web-deps
    scripts/web-static.sh
    cd web && npm test
    cd web && npm run build
    cd web && npm run test:prerendered

# Page weight and mobile Lighthouse scores for / and two landing pages (figures, not pass/fail).
bench-web: web-deps
    cd web/bench && npm ci --no-audit --no-fund && node bench-web.mjs

# The end-to-end suite in Chromium (e2e/): its own API and stripe-mock per worker, on SQLite and (sign-up to success) PostgreSQL.
[positional-arguments]
e2e *ARGS:
    scripts/e2e.sh "$@"

# The end-to-end sign-up-to-success flow with the API on PostgreSQL only.
e2e-postgres:
    scripts/e2e.sh --project=postgres

# Lints deploy/ (hadolint, dclint with the compose-spec schema, caddy validate, shellcheck, agreement with config.rs and docs/deploy.md); self-tested on broken copies.
check-deploy:
    scripts/check-deploy.sh

# Installs the web's packages from the lock file when they are missing or stale.
web-deps:
    scripts/web-deps.sh

# Makes sure the local PostgreSQL answers (starts it when it is down; fails loudly otherwise).
postgres:
    scripts/ensure-postgres.sh

# Regenerates docs/openapi.json from the API code.
openapi:
    cargo run -q -p closewise-api --bin closewise-api -- openapi > docs/openapi.json

# Regenerates the web's snapshot of the product catalogue (the prerendered pricing pages read it)
# from the API code: the same answer as `GET /api/products`.
catalogue:
    cargo run -q -p closewise-api --bin closewise-api -- catalogue > web/src/lib/billing/catalogue.json

# The operator CLI, e.g. `./just cli mail list --to ana@example.com`.
[positional-arguments]
cli *ARGS:
    cargo run -q -p closewise-cli -- "$@"

# The desktop client against ./just up, e.g. `./just desktop login --device` (crates/desktop-client),
# with that server's entitlement key pinned.
[positional-arguments]
desktop *ARGS:
    scripts/desktop.sh "$@"
