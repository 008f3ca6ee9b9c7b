#!/bin/sh
# The image's entrypoint: reads secrets from files, then runs the command (`closewise-api` by
# default, or `closewise …`). For each variable below, NAME_FILE=/path sets NAME to that file's
# contents (Compose and Swarm secrets, Kubernetes secret volumes): a PEM key keeps its line breaks.
# Setting both NAME and NAME_FILE, or naming an unreadable file, refuses to start.
set -eu
for name in JWT_PRIVATE_KEY MFA_ENCRYPTION_KEY STRIPE_SECRET_KEY STRIPE_WEBHOOK_SECRET SMTP_URL DATABASE_URL; do
  eval "file=\${${name}_FILE:-}"
  [ -n "$file" ] || continue
  eval "value=\${${name}:-}"
  if [ -n "$value" ]; then
    echo "closewise: both $name and ${name}_FILE are set; set one" >&2
    exit 64
  fi
  if [ ! -r "$file" ]; then
    echo "closewise: ${name}_FILE=$file is not a readable file (user $(id -u))" >&2
    exit 66
  fi
  value=$(cat "$file")
  export "$name=$value"
  unset "${name}_FILE"
done
exec "$@"
