#!/usr/bin/env bash
# `npm start`: install, build and serve Signalbox (SQLite at ./data by default).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# --max-semi-space-size: V8's young generation grows to 3 × 16 MB under server-rendered pages
# and stays there; 4 MB semi-spaces kept peak RSS ~50 MB lower (throughput on the shared build
# machine was too noisy to compare; bench/load.ts starts the server with the same flags).
# --heap-growing-percent=20: under load V8 let the old space grow far past what stays live
# (~30 MB after a full GC) before collecting; growing it 20 % at a time kept the peak RSS under
# 50 clients at 172–182 MB instead of 247–262 MB, for ~5–10 % more CPU on a rendered page.
exec "$here/with-node.sh" bash -c 'bash scripts/install.sh && exec node --max-semi-space-size=4 --heap-growing-percent=20 --enable-source-maps dist/signalbox/server.mjs server "$@"' start "$@"
