#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster:
#   bash scripts/with-postgres.sh npx vitest run --project node
# Installs PostgreSQL through apt-get when its binaries are missing, creates a cluster under /tmp
# (as the postgres user when run as root), starts it on a free loopback port, exports DATABASE_URL,
# runs the command, then stops and deletes the cluster and exits with the command's code.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 <command> [args…]" >&2
  exit 2
fi

find_initdb() { ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(find_initdb)" ]; then
  echo "with-postgres: PostgreSQL binaries not found; installing with apt-get…" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi
INITDB="$(find_initdb)"
if [ -z "$INITDB" ]; then
  echo "with-postgres: could not find or install initdb" >&2
  exit 1
fi
BIN="$(dirname "$INITDB")"

if [ "$(id -u)" -eq 0 ]; then
  AS=(runuser -u postgres --)
else
  AS=()
fi

DIR="$(mktemp -d /tmp/account-pg.XXXXXX)"
chmod 700 "$DIR"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$DIR"

PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"

cleanup() {
  "${AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT INT TERM

"${AS[@]}" "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --no-locale >"$DIR/initdb.log" 2>&1 || {
  cat "$DIR/initdb.log" >&2
  exit 1
}
"${AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200" start >/dev/null || {
  cat "$DIR/server.log" >&2
  exit 1
}

export DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "with-postgres: PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT (cluster $DIR)" >&2

set +e
"$@"
CODE=$?
set -e
exit "$CODE"
