#!/usr/bin/env bash
# A long fuzz run (tests/fuzz.rs) in release: every parser that reads what strangers write,
# FUZZ_ITERS mutated inputs each (default 200,000), from FUZZ_SEED (default: the time, printed,
# so a failure can be run again). The test command runs the same harness briefly (1,000 each).
#   scripts/fuzz.sh                 # about ten minutes on two cores
#   FUZZ_ITERS=20000 FUZZ_SEED=42 scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export FUZZ_ITERS="${FUZZ_ITERS:-200000}"
export FUZZ_SEED="${FUZZ_SEED:-$(date +%s)}"
echo "fuzzing: FUZZ_ITERS=$FUZZ_ITERS FUZZ_SEED=$FUZZ_SEED"
cargo test --release --test fuzz -- --test-threads=2
