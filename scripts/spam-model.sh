#!/usr/bin/env bash
# Retrains the spam models shipped in the binary (assets/spam-base.zst, the Bayes counts, and
# assets/spam-lr.zst, the logistic regression's weights) from the development corpus (spam-1,
# easy-ham-1, hard-ham-1; never the evaluation groups). Run it after changing what a token is
# (src/spam/tokens.rs, and bump its VERSION), then commit the new files.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=$(scripts/corpus.sh dir)
cargo run --quiet --release --example spam_base_model -- "$corpus" assets/spam-base.zst assets/spam-lr.zst
