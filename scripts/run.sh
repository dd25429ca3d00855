#!/usr/bin/env bash
# Builds everything (web bundle, then the release binary that embeds it) and runs
# `mailclient serve` on its defaults: data in ./data, http://127.0.0.1:8080.
# Extra arguments go to `serve`, e.g. scripts/run.sh --listen 0.0.0.0:8080
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-web.sh
cargo build --release --locked
exec "${CARGO_TARGET_DIR:-target}/release/mailclient" serve "$@"
