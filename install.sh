#!/usr/bin/env bash
# Builds the release binary (web bundle included) and installs it as a service:
#   /usr/local/bin/mailclient, /etc/mailclient/config.toml (kept if present; data in
#   /var/lib/mailclient), and a systemd unit when systemd is there.
#
#   ./install.sh                       build and install (as root)
#   ./install.sh --binary PATH         install an already-built binary, skip the build
#   DESTDIR=/tmp/pkg ./install.sh ...  stage into a directory (packaging, tests); no
#                                      users are created and systemd is not touched
set -euo pipefail
cd "$(dirname "$0")"

binary=""
while (($#)); do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

destdir="${DESTDIR:-}"
bindir="${BINDIR:-/usr/local/bin}"
confdir="${CONFDIR:-/etc/mailclient}"
datadir="${DATADIR:-/var/lib/mailclient}"
unitdir="${UNITDIR:-/etc/systemd/system}"

if [ -z "$binary" ]; then
  scripts/build-web.sh
  cargo build --release --locked
  binary="${CARGO_TARGET_DIR:-target}/release/mailclient"
fi
[ -x "$binary" ] || { echo "no binary at $binary" >&2; exit 1; }

install -d "$destdir$bindir" "$destdir$confdir"
install -m 0755 "$binary" "$destdir$bindir/mailclient"

if [ ! -e "$destdir$confdir/config.toml" ]; then
  sed -e "s|^data_dir = .*|data_dir = \"$datadir\"|" config.example.toml > "$destdir$confdir/config.toml"
  chmod 0640 "$destdir$confdir/config.toml"
  echo "wrote $confdir/config.toml"
else
  echo "kept the existing $confdir/config.toml"
fi

# The unit is installed only where systemd runs (or when staging with DESTDIR).
if [ -n "$destdir" ] || [ -d /run/systemd/system ]; then
  install -d "$destdir$unitdir"
  sed -e "s|@BINDIR@|$bindir|; s|@CONFDIR@|$confdir|; s|@DATADIR@|$datadir|" assets/mailclient.service \
    > "$destdir$unitdir/mailclient.service"
  echo "installed $unitdir/mailclient.service"
fi

if [ -z "$destdir" ]; then
  if ! id mailclient >/dev/null 2>&1 && command -v useradd >/dev/null 2>&1; then
    useradd --system --home-dir "$datadir" --shell /usr/sbin/nologin mailclient
  fi
  install -d -m 0700 "$datadir"
  id mailclient >/dev/null 2>&1 && chown mailclient:mailclient "$datadir"
  chgrp mailclient "$confdir/config.toml" 2>/dev/null || true
  if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    echo "start it with: systemctl enable --now mailclient"
    echo "then read the first-run link with: journalctl -u mailclient"
  else
    echo "no systemd here: run  $bindir/mailclient serve --config $confdir/config.toml"
  fi
fi
echo "installed mailclient $("$destdir$bindir/mailclient" --version | cut -d' ' -f2)"
