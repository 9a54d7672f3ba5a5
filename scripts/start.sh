#!/usr/bin/env bash
# `npm start`: install, build and serve Signalbox (SQLite at ./data by default).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# --max-semi-space-size: V8's young generation grows to 3 × 16 MB under server-rendered pages
# and stays there; 4 MB semi-spaces kept peak RSS ~50 MB lower (throughput on the shared build
# machine was too noisy to compare; bench/load.ts starts the server with the same flag).
# build/server/signalbox.mjs is src/server bundled by scripts/install.sh (bench/load.ts starts the same).
exec "$here/with-node.sh" bash -c 'bash scripts/install.sh && exec node --max-semi-space-size=4 --enable-source-maps build/server/signalbox.mjs server "$@"' start "$@"
