#!/usr/bin/env bash
# Installs npm dependencies (when package-lock.json changed since the last install) and builds
# the console (when a source file is newer than the build). Run through with-node.sh. Quiet:
# one line per step; the tools' own output is shown only when a step fails.
set -euo pipefail
stamp=node_modules/.signalbox-installed
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

run_quietly() {
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "signalbox: '$*' failed (output above)" >&2
    exit 1
  fi
}

if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  echo "signalbox: installing dependencies (a minute or two the first time)" >&2
  # The lockfile lists every platform's optional packages, so `npm ci` installs exactly it.
  run_quietly npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi
if [ ! -f dist/server/entry.mjs ] || [ -n "$(find src/pages src/layouts src/components src/islands src/console src/middleware.ts locales astro.config.mjs public -newer dist/server/entry.mjs 2>/dev/null | head -n 1)" ]; then
  echo "signalbox: building the console" >&2
  run_quietly astro build
fi
# The server runs from one bundled JavaScript file (scripts/bundle-server.mjs): no TypeScript
# stripping at run time, ~28 MB less RSS. Rebuilt when a server source is newer than it.
if [ ! -f build/server/signalbox.mjs ] || [ -n "$(find src/server package-lock.json -newer build/server/signalbox.mjs 2>/dev/null | head -n 1)" ]; then
  echo "signalbox: bundling the server" >&2
  run_quietly node scripts/bundle-server.mjs
fi
