#!/usr/bin/env bash
# Signalbox demo deploy: pretends to ship the built site and reports where it went.
# The engine names the version of the build being deployed in SEMAPHORE_TASK_INCOMING_VERSION.
set -euo pipefail
target="${1:-dev}"
version="${SEMAPHORE_TASK_INCOMING_VERSION:-unknown}"
echo "Deploying demo site version ${version} to ${target}..."
sleep 1
echo "Deployed version ${version} to ${target}: all good"
