#!/usr/bin/env bash
# `npm start`: install, build and serve Signalbox (SQLite at ./data by default).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec "$here/with-node.sh" bash -c 'bash scripts/install.sh && exec node src/server/cli/main.ts server "$@"' start "$@"
