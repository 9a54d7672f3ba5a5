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
# The console imports the API's own schemas and helpers from src/server: a change there rebuilds it too.
# `npm run test:quick` (SIGNALBOX_TEST_NO_BROWSER) opens no console page and skips the rebuild.
if [ -z "${SIGNALBOX_TEST_NO_BROWSER:-}" ] && { [ ! -f dist/server/entry.mjs ] || [ -n "$(find src/pages src/layouts src/components src/islands src/console src/middleware.ts src/server locales astro.config.mjs public -newer dist/server/entry.mjs 2>/dev/null | head -n 1)" ]; }; then
  echo "signalbox: building the console" >&2
  run_quietly astro build
fi
# The server runs from one bundled JavaScript file: no TypeScript stripping at run time and one
# module record instead of hundreds keep ~35 MB off an idle server (bench/README.md, load figures).
# Modules the server imports only when needed (metrics, the CLI's other commands) go to chunks of
# their own (--splitting): in one file their packages' imports (prom-client…) would load at start.
bundle=dist/signalbox/server.mjs
if [ ! -f "$bundle" ] || [ -n "$(find src/server package.json -newer "$bundle" 2>/dev/null | head -n 1)" ]; then
  echo "signalbox: bundling the server" >&2
  rm -rf dist/signalbox
  run_quietly esbuild src/server/cli/main.ts --bundle --splitting --platform=node --format=esm --packages=external \
    --target=node22 --sourcemap --outdir=dist/signalbox --entry-names=server --chunk-names=chunks/[name]-[hash] \
    --out-extension:.js=.mjs --log-level=warning
fi
