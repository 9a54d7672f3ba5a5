#!/usr/bin/env bash
# Signalbox demo build: "compiles" the site into build/ and prints the version it built.
# The engine names the version of a build task in SEMAPHORE_TASK_TARGET_VERSION (as Semaphore does).
set -euo pipefail
version="${SEMAPHORE_TASK_TARGET_VERSION:-${1:-dev}}"
mkdir -p build
printf '<h1>Demo site</h1>\n<p>version %s, built %s</p>\n' "$version" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > build/index.html
echo "Built demo site version ${version} into build/index.html"
