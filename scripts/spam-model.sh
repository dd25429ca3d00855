#!/usr/bin/env bash
# Retrains the spam model shipped in the binary (assets/spam-base.zst) from the development
# corpus (spam-1, easy-ham-1, hard-ham-1; never the evaluation groups). Run it after changing
# what a token is (src/spam/tokens.rs, and bump its VERSION), then commit the new file.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=$(scripts/corpus.sh dir)
cargo run --quiet --release --example spam_base_model -- "$corpus" assets/spam-base.zst
