#!/usr/bin/env bash
# Installs what the tests need from Debian's packages, only when missing: headless Chromium for
# the browser tests and a font with Hebrew glyphs (fonts-liberation, which chromium pulls in,
# has none). Later issues add Dovecot and Postfix here. Needs root (or sudo) on a fresh machine.
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
