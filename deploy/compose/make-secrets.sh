#!/bin/sh
# Writes the files compose.yaml's secrets read, into deploy/compose/secrets/
# (or the directory given): a CA and one server certificate for the three
# services, a bearer token and the token file holding its hash, Scoring's
# token for the Oracle and the Executor (its hash there too), the
# PostgreSQL password and a pgpass file for it, an empty endpoints file and
# an empty API-key file. Files that exist are kept, so it can run again.
#
# The containers run as uid 65532 (postgres as 999) and read the files
# through bind mounts, so the files are world-readable; the directory is
# not (0700).
set -eu
dir=${1:-$(dirname "$0")/secrets}
mkdir -p "$dir"
chmod 700 "$dir"
cd "$dir"

if [ ! -f ca.crt ]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout ca.key -out ca.crt -days 825 -subj /CN=triage-compose-ca 2>/dev/null
fi
if [ ! -f server.crt ]; then
  # The names the services are dialled by: each other's service names in
  # the Compose network, and localhost from the host (published ports).
  printf 'subjectAltName=DNS:oracle,DNS:planner,DNS:executor,DNS:scoring,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > server.ext
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout server.key -out server.csr -subj /CN=triage 2>/dev/null
  openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
    -days 825 -extfile server.ext -out server.crt 2>/dev/null
  rm -f server.csr server.ext
fi
if [ ! -f token ]; then
  # The client's token; the servers keep only its SHA-256 (all services).
  openssl rand -hex 32 > token
  hash=$(tr -d '\n' < token | openssl dgst -sha256 -r | cut -d' ' -f1)
  printf '%s * compose-client\n' "$hash" > auth-tokens
fi
if [ ! -f scoring-token ]; then
  # Scoring's token for its calls to the Oracle and the Executor, granted
  # those two only, with room for every caller of Scoring at once
  # (max_concurrent=256 against the servers' 16 a caller). The container
  # reads it: world-readable, like the rest.
  openssl rand -hex 32 > scoring-token
  hash=$(tr -d '\n' < scoring-token | openssl dgst -sha256 -r | cut -d' ' -f1)
  printf '%s oracle,executor compose-scoring max_concurrent=256\n' "$hash" >> auth-tokens
fi
if [ ! -f pg-password ]; then
  openssl rand -hex 24 > pg-password
  printf '*:*:*:triage:%s\n' "$(cat pg-password)" > pgpass
fi
# Named LLM endpoints for the Planner and the Executor's baselines
# (docs/reference.md, "The endpoints file"); their API keys go in llm-keys.env as NAME=VALUE.
[ -f endpoints.json ] || echo '{}' > endpoints.json
[ -f llm-keys.env ] || echo '# NAME=VALUE for each api_key_env of endpoints.json' > llm-keys.env

chmod 644 ca.crt server.crt server.key auth-tokens scoring-token pg-password pgpass endpoints.json llm-keys.env
chmod 600 ca.key token
echo "secrets in $(pwd)"
