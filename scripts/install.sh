#!/usr/bin/env bash
# Installs npm dependencies (when package-lock.json changed since the last install) and builds
# the console (when a source file is newer than the build). Run through with-node.sh.
set -euo pipefail
stamp=node_modules/.signalbox-installed
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  echo "signalbox: installing dependencies" >&2
  # npm ci refuses a lockfile that lacks other platforms' optional packages; fall back to install.
  npm ci --no-audit --no-fund --loglevel=error >&2 || npm install --no-audit --no-fund --loglevel=error >&2
  touch "$stamp"
fi
if [ ! -f dist/server/entry.mjs ] || [ -n "$(find src/pages src/layouts src/islands src/console src/middleware.ts locales astro.config.mjs public -newer dist/server/entry.mjs 2>/dev/null | head -n 1)" ]; then
  echo "signalbox: building the console" >&2
  astro build >&2
fi
