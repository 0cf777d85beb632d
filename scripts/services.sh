#!/usr/bin/env bash
# Installs (from Debian) and starts what the test suites need that npm cannot
# provide: PostgreSQL. Safe to run again: every step checks before it acts.
# The PostgreSQL tests connect to DATABASE_URL, by default
# postgres://leadroute:leadroute@127.0.0.1:5432/leadroute_test, which this creates.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_ROLE=leadroute
PG_PASSWORD=leadroute
PG_DATABASE=leadroute_test

# Root runs commands directly (CI, containers); anyone else goes through sudo.
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
# PostgreSQL refuses to run as root, and peer authentication maps the OS user
# postgres to the database superuser. Run from / so psql can read its cwd.
as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else (cd / && sudo -u postgres "$@"); fi
}

newest_pg_version() { ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -n 1; }

# 1. Install the server when no PostgreSQL binaries are present.
PG_VERSION="$(newest_pg_version)"
if [ -z "$PG_VERSION" ] || [ ! -x "/usr/lib/postgresql/$PG_VERSION/bin/postgres" ] || ! command -v pg_ctlcluster >/dev/null; then
  echo "PostgreSQL: installing from Debian"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql
  PG_VERSION="$(newest_pg_version)"
fi
if [ -z "$PG_VERSION" ]; then
  echo "PostgreSQL: installation left no server under /usr/lib/postgresql" >&2
  exit 1
fi

# 2. Make sure a cluster exists (the package creates `main`, but a cluster may have been dropped).
if ! pg_lsclusters -h | awk -v v="$PG_VERSION" '$1 == v && $2 == "main" { found = 1 } END { exit !found }'; then
  echo "PostgreSQL: creating cluster $PG_VERSION/main"
  as_root pg_createcluster --locale=C.UTF-8 "$PG_VERSION" main
fi
PG_PORT="$(pg_lsclusters -h | awk -v v="$PG_VERSION" '$1 == v && $2 == "main" { print $3 }')"

# 3. Start it unless it is already running (pg_ctlcluster status: 0 running, 3 down).
if as_root pg_ctlcluster "$PG_VERSION" main status >/dev/null 2>&1; then
  echo "PostgreSQL: cluster $PG_VERSION/main already running on port $PG_PORT"
else
  echo "PostgreSQL: starting cluster $PG_VERSION/main on port $PG_PORT"
  as_root pg_ctlcluster "$PG_VERSION" main start
fi

# 4. Wait until it accepts TCP connections.
for attempt in $(seq 1 60); do
  if pg_isready -q -h 127.0.0.1 -p "$PG_PORT"; then break; fi
  if [ "$attempt" -eq 60 ]; then
    echo "PostgreSQL: not accepting connections on 127.0.0.1:$PG_PORT after 30 s" >&2
    exit 1
  fi
  sleep 0.5
done

# 5. The test role and database. ALTER on every run puts back a changed password or lost CREATEDB.
psql_admin() { as_postgres psql -X -v ON_ERROR_STOP=1 -q -p "$PG_PORT" -d postgres "$@"; }
if [ "$(psql_admin -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$PG_ROLE'")" != "1" ]; then
  echo "PostgreSQL: creating role $PG_ROLE"
  psql_admin -c "CREATE ROLE $PG_ROLE LOGIN CREATEDB PASSWORD '$PG_PASSWORD'"
else
  psql_admin -c "ALTER ROLE $PG_ROLE LOGIN CREATEDB PASSWORD '$PG_PASSWORD'"
fi
if [ "$(psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname = '$PG_DATABASE'")" != "1" ]; then
  echo "PostgreSQL: creating database $PG_DATABASE"
  # UTF-8 whatever locale the cluster was initialised with (a bare container has none set).
  psql_admin -c "CREATE DATABASE $PG_DATABASE OWNER $PG_ROLE ENCODING 'UTF8' LOCALE 'C.UTF-8' TEMPLATE template0"
fi
echo "PostgreSQL $PG_VERSION: ready at postgres://$PG_ROLE:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DATABASE"
if [ "$PG_PORT" != 5432 ] && [ -z "${DATABASE_URL:-}" ]; then
  echo "PostgreSQL: not on the default port; run the tests with DATABASE_URL=postgres://$PG_ROLE:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DATABASE"
fi

echo "MongoDB: no server can be installed here; the Mongo adapter's live suite runs only when MONGODB_URI is set${MONGODB_URI:+ (set: it will run)}."
