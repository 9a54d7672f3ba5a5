#!/usr/bin/env bash
# `npm test`: every test (SQLite and PostgreSQL, browser journeys), ending with "N passed, N failed".
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec "$here/with-node.sh" bash -c 'bash scripts/install.sh && node scripts/run-tests.ts "$@"' test "$@"
