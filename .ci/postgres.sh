#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the audit ledger's Postgres tests; prints its DSN on stdout.
#
#   export QUOTEBOUND_TEST_POSTGRES_DSN="$(bash .ci/postgres.sh)"    # [DIR], default /tmp/quotebound-pg
#   python -m pytest -m "not llm" tests/unit/test_audit_postgres.py
#   runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D /tmp/quotebound-pg/data stop   # when done
#
# Installs Debian 12's postgresql-15 at a pinned version (apt, as root; skipped when that version is installed),
# then runs a fresh cluster as the unprivileged `postgres` user, listening on a unix socket only (no TCP port),
# with a random password. Running it again while the cluster is up just prints the DSN. Logs go to stderr.
set -euo pipefail

# `apt-cache policy postgresql-15`: the Debian 12 (bookworm) main version. Override to move the pin.
PG_VERSION="${QUOTEBOUND_PG_VERSION:-15.18-0+deb12u1}"
PG_MAJOR=15
BIN="/usr/lib/postgresql/$PG_MAJOR/bin"
DIR="${1:-/tmp/quotebound-pg}"
DB=quotebound_test
say() { echo "postgres.sh: $*" >&2; }

# `${db:Status-Abbrev}` is "ii " only when installed: a removed package keeps its version in dpkg's records.
installed="$(dpkg-query -W -f='${db:Status-Abbrev}${Version}' "postgresql-$PG_MAJOR" 2>/dev/null || true)"
if [ "$installed" != "ii $PG_VERSION" ]; then
  if [ "$(id -u)" != 0 ]; then
    say "postgresql-$PG_MAJOR=$PG_VERSION is not installed (found '${installed:-none}') and installing it needs root"
    exit 1
  fi
  say "installing postgresql-$PG_MAJOR=$PG_VERSION"
  export DEBIAN_FRONTEND=noninteractive
  # No default cluster: this script makes its own, and a package-made one would try to start a service.
  mkdir -p /etc/postgresql-common
  [ -e /etc/postgresql-common/createcluster.conf ] || echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf
  apt-cache show "postgresql-$PG_MAJOR=$PG_VERSION" >/dev/null 2>&1 || apt-get update -q >&2
  if ! apt-cache show "postgresql-$PG_MAJOR=$PG_VERSION" >/dev/null 2>&1; then
    say "postgresql-$PG_MAJOR=$PG_VERSION is not in the package index any more; available:"
    apt-cache policy "postgresql-$PG_MAJOR" >&2
    say "set QUOTEBOUND_PG_VERSION (and update the pin in .ci/postgres.sh)"
    exit 1
  fi
  apt-get install -y -q --no-install-recommends -o Dpkg::Options::=--force-confold \
    "postgresql-$PG_MAJOR=$PG_VERSION" "postgresql-client-$PG_MAJOR=$PG_VERSION" >&2
fi

as_pg() { if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi; }
dsn() { echo "postgresql://postgres:$(cat "$DIR/password")@/$DB?host=$DIR/socket"; }

if [ -f "$DIR/data/postmaster.pid" ] && as_pg "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
  say "already running in $DIR"
  dsn
  exit 0
fi

rm -rf "$DIR"
mkdir -p "$DIR/data" "$DIR/socket"
# A random password: the socket is reachable by every local user, so trust auth would hand them a superuser.
head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$DIR/password"
chmod 600 "$DIR/password"
chown -R postgres:postgres "$DIR/data" "$DIR/socket"
chmod 700 "$DIR/data"
chmod 755 "$DIR" "$DIR/socket"
pwfile="$(mktemp)"
cp "$DIR/password" "$pwfile"
chown postgres "$pwfile"
as_pg "$BIN/initdb" -D "$DIR/data" -U postgres --pwfile="$pwfile" --auth=scram-sha-256 --encoding=UTF8 \
  --locale=C --no-sync >&2
rm -f "$pwfile"
# Throwaway: no fsync, no TCP listener; the socket lives in DIR/socket.
as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/data/server.log" -w -t 60 \
  -o "-c listen_addresses='' -k $DIR/socket -c fsync=off -c full_page_writes=off" start >&2
PGPASSWORD="$(cat "$DIR/password")" as_pg "$BIN/createdb" -h "$DIR/socket" -U postgres "$DB"
say "cluster up in $DIR (stop: runuser -u postgres -- $BIN/pg_ctl -D $DIR/data stop)"
dsn
