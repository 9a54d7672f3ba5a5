#!/usr/bin/env bash
# Signalbox demo deploy: pretends to ship the built site and reports where it went.
set -euo pipefail
target="${1:-dev}"
echo "Deploying the demo site to ${target}..."
sleep 1
echo "Deployed to ${target}: all good"
