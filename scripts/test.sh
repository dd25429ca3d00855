#!/usr/bin/env bash
# Runs every test: formatting, lints, the web bundle budget, type check and unit tests, the Rust unit and
# integration tests, and the end-to-end tests in headless Chromium against the real binary.
# This is what .ci/run runs. Stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS
step() { printf '\n==> %s (%ss)\n' "$*" "$((SECONDS - started))"; }

step "test dependencies"
scripts/install-test-deps.sh

step "web: install and build"
scripts/build-web.sh

step "web: bundle budget (the inbox's first-paint JS, the editor chunk)"
node web/scripts/bundle-budget.mjs

step "web: type check and unit tests"
(cd web && npm run --silent typecheck && npm run --silent test)

step "rust: format"
cargo fmt --all -- --check

step "rust: clippy"
cargo clippy --locked --all-targets -- -D warnings

step "rust: tests"
cargo test --locked

target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
binary="$target_dir/debug/mailclient"

step "install.sh (staged into a temp dir)"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
DESTDIR="$stage" ./install.sh --binary "$binary" >/dev/null
test -x "$stage/usr/local/bin/mailclient"
unit="$stage/etc/systemd/system/mailclient.service"
grep -q 'ExecStart=/usr/local/bin/mailclient serve --config /etc/mailclient/config.toml' "$unit"
# The hardening the unit must keep, and the install's own data dir as the one writable path.
for line in 'ReadWritePaths=/var/lib/mailclient' 'UMask=0077' 'PrivateDevices=true' \
  'SystemCallFilter=@system-service' 'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6' \
  'MemoryMax=2G' 'CapabilityBoundingSet=' 'ProtectProc=invisible' 'TasksMax=1024'; do
  grep -qx "$line" "$unit" || { echo "the unit lost: $line" >&2; exit 1; }
done
if grep -q '@[A-Z]*@' "$unit"; then echo "the unit has an unfilled placeholder" >&2; exit 1; fi
"$stage/usr/local/bin/mailclient" --config "$stage/etc/mailclient/config.toml" \
  --data-dir "$stage/data" migrate >/dev/null
echo "staged install works"

step "end-to-end (headless Chromium, real binary)"
export E2E_MAILCLIENT_BIN="$binary"
(cd web && node --test --test-concurrency=1 e2e/*.e2e.mjs)

step "all tests passed"
