#!/usr/bin/env bash
# Installs the web app's pinned packages (npm ci, from package-lock.json) and builds the bundle
# into web/dist, which the Rust build embeds.
set -euo pipefail
cd "$(dirname "$0")/../web"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent build
