#!/usr/bin/env bash
# Private Dovecot (IMAP/IMAPS/LMTP/auth) + Postfix (SMTP/submission/submissions) on loopback for
# integration tests and benchmarks, all state in one directory. Adapted from the verified recipe
# shared/recipes/mail-test-server.md (its gotcha fixes are kept and marked below).
#
#   mail-test-server.sh install            apt-installs dovecot, postfix, openssl, isync if missing
#   mail-test-server.sh start DIR          creates DIR if needed, starts both servers, prints env
#                                          lines (MAILTEST_DIR, MAILTEST_CA, MAILTEST_*_PORT, PIDs)
#   mail-test-server.sh stop DIR           SIGTERM both masters by PID, waits until they are gone
#   mail-test-server.sh seed DIR USER SRC  bulk-loads every message file of SRC (a directory of
#                                          raw RFC 822 files, or a Maildir) into USER's mailbox
#                                          (server must be running); prints MAILTEST_SEED_* lines
#     env MAILTEST_SEED_FOLDER  target mailbox, default INBOX (created + subscribed if missing)
#     env MAILTEST_SEED_FLAGS   Maildir flag letters given to every message, e.g. S (\Seen)
#     env MAILTEST_SEED_COPY=1  always copy, never hard-link (see seed() below)
#   env MAILTEST_IMAP_CAPABILITY   (start) the CAPABILITY Dovecot announces (e.g. without IDLE)
#   env MAILTEST_IMAP_COMPRESS=1   (start) Dovecot offers COMPRESS=DEFLATE (its imap_zlib plugin)
#   env MAILTEST_CERT_SAN          (start) more names for the leaf certificate, e.g. IP:10.213.0.2
#   env MAILTEST_SENT_NAME         (start) the folder marked \Sent (default Sent), e.g. "Sent Messages"
#   env MAILTEST_GMAIL=1           (start) Gmail's folders: [Gmail]/All Mail (\All), Sent Mail,…
#
# Users user1..user3@example.test, passwords pass1..pass3 (bare user1 works too). Mail lives in
# DIR/mail/example.test/USER/Maildir (INBOX = that dir, folder F = Maildir/F). Ports: env
# MAILTEST_{IMAP,IMAPS,SMTP,SUBMISSION,SUBMISSIONS}_PORT (defaults below). Needs root (both
# masters do); run as another user it re-runs itself through sudo.
set -euo pipefail

usage() {
  echo "usage: $0 install | start DIR | stop DIR | seed DIR USER SOURCE" >&2
  exit 2
}
cmd=${1:-}
case $cmd in
  install) ;;
  start | stop) [ $# -eq 2 ] || usage ;;
  seed) [ $# -eq 4 ] || usage ;;
  *) usage ;;
esac

if [ "$(id -u)" != 0 ]; then
  command -v sudo > /dev/null || {
    echo "$0: needs root (or sudo)" >&2
    exit 1
  }
  # sudo resets the environment, so hand the MAILTEST_* settings over explicitly.
  mapfile -t keep < <(env | grep '^MAILTEST_' || true)
  exec sudo env "${keep[@]}" bash "$0" "$@"
fi

IMAP_PORT=${MAILTEST_IMAP_PORT:-1143}
IMAPS_PORT=${MAILTEST_IMAPS_PORT:-1993}
SMTP_PORT=${MAILTEST_SMTP_PORT:-2525}               # MX-like: no auth needed for @example.test
SUBMISSION_PORT=${MAILTEST_SUBMISSION_PORT:-1587}   # STARTTLS offered, AUTH required
SUBMISSIONS_PORT=${MAILTEST_SUBMISSIONS_PORT:-1465} # implicit TLS, AUTH required
DOMAIN=example.test
PACKAGES=(dovecot-imapd dovecot-lmtpd postfix openssl isync) # isync = mbsync, for a benchmark

missing_packages() {
  local p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}

install() {
  local need
  mapfile -t need < <(missing_packages)
  ((${#need[@]})) || return 0
  echo "installing: ${need[*]}" >&2
  # "No configuration": no /etc/postfix/main.cf and no system Postfix instance on port 25.
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  # Don't let the packages' maintainer scripts start a system Dovecot on 143/993 (all
  # interfaces) on a developer's machine: deny service starts for this install only, unless
  # the machine already has its own policy (as the sandbox image does).
  local policy=/usr/sbin/policy-rc.d own_policy=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 0755 "$policy" && own_policy=1
  fi
  local rc=0
  { apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } \
    > /tmp/mail-test-server-apt.log 2>&1 || rc=$?
  [ -z "$own_policy" ] || rm -f "$policy"
  if [ "$rc" != 0 ]; then
    tail -n 30 /tmp/mail-test-server-apt.log >&2
    echo "apt-get install failed" >&2
    return 1
  fi
  rm -f /tmp/mail-test-server-apt.log
}

alive() { # pid: running and not a zombie (PID 1 in some sandboxes reaps zombies lazily, ~1-2 s)
  local st
  st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}

group_alive() { # pgid: any non-zombie process left in the process group
  ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ {f=1} END {exit !f}'
}

wait_gone() { # pid [tries of 50 ms]
  local pid=$1 n=${2:-100}
  while alive "$pid" && [ "$n" -gt 0 ]; do sleep 0.05; n=$((n - 1)); done
  ! alive "$pid"
}

wait_port() { # port
  local _
  for _ in $(seq 1 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.05
  done
  echo "port $1 did not open" >&2
  return 1
}

stop() {
  local f pid exe pids=()
  for f in "$T/postfix/spool/pid/master.pid" "$T/dovecot/run/master.pid"; do
    [ -s "$f" ] || continue
    pid=$(tr -d ' \n' < "$f")
    alive "$pid" || continue
    exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || continue
    case $exe in /usr/sbin/dovecot | /usr/lib/postfix/sbin/master) ;; *) continue ;; esac # stale pid
    kill -TERM "$pid" && pids+=("$pid")
  done
  # Both masters are process-group leaders and their children share the group.
  # Postfix exits in ~20 ms, Dovecot in ~1.1 s; then make sure the whole group is gone.
  for pid in "${pids[@]}"; do
    wait_gone "$pid" 200 || echo "master $pid did not exit on TERM" >&2
    if group_alive "$pid"; then sleep 0.2; fi
    if group_alive "$pid"; then kill -KILL -- "-$pid" 2> /dev/null || true; fi
  done
}

start() {
  if [ -n "$(missing_packages)" ] || ! command -v dovecot > /dev/null || ! command -v doveadm > /dev/null; then
    install
  fi
  mkdir -p "$T"
  T=$(cd "$T" && pwd)
  # Postfix daemons run as 'postfix' and Dovecot's as dovecot/dovenull/mail: every path
  # component must be traversable (mktemp -d makes 0700 dirs).
  chmod 0755 "$T"
  mkdir -p "$T/ssl" "$T/dovecot/run" "$T/dovecot/state" "$T/mail" \
    "$T/postfix/etc" "$T/postfix/spool" "$T/postfix/data"
  chown mail:mail "$T/mail"
  chmod 0750 "$T/mail"
  chown postfix:postfix "$T/postfix/data"

  # ---- TLS: tiny CA + leaf cert. rustls rejects a self-signed leaf (CaUsedAsEndEntity) and
  # webpki needs a SAN, hence CA:FALSE + SAN on a separate leaf.
  if [ ! -s "$T/ssl/cert.pem" ]; then
    (
      cd "$T/ssl"
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -keyout ca.key -out ca.pem -days 30 -subj "/CN=mail test CA" 2> /dev/null
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -keyout key.pem -out leaf.csr -subj "/CN=localhost" 2> /dev/null
      printf '%s\n' "basicConstraints=critical,CA:FALSE" \
        "keyUsage=critical,digitalSignature,keyEncipherment" \
        "extendedKeyUsage=serverAuth" \
        "subjectAltName=DNS:localhost,DNS:mail.$DOMAIN,IP:127.0.0.1,IP:::1${MAILTEST_CERT_SAN:+,$MAILTEST_CERT_SAN}" > leaf.ext
      openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
        -days 30 -extfile leaf.ext -out cert.pem 2> /dev/null
      cat cert.pem ca.pem > fullchain.pem
      chmod 0644 ca.pem cert.pem fullchain.pem
      chmod 0600 ca.key key.pem
    )
  fi

  # ---- users (passwd-file: user:{SCHEME}password:uid:gid:gecos:home:shell:extra) ----
  cat > "$T/dovecot/users" << EOF
user1@$DOMAIN:{PLAIN}pass1::::::
user2@$DOMAIN:{PLAIN}pass2::::::
user3@$DOMAIN:{PLAIN}pass3::::::
EOF
  chown root:dovecot "$T/dovecot/users"
  chmod 0640 "$T/dovecot/users"

  # first_valid_uid: mail is stored as mail:mail (uid 8) and Dovecot refuses uids below
  # first_valid_uid (default 500). auth_failure_delay + the anvil listener with mode 0 switch
  # off the 2 s delay and the growing per-IP penalty after failed logins.
  # LAYOUT=fs: Maildir++ would reject '.' in mailbox names.
  # OAuth2 (XOAUTH2/OAUTHBEARER) next to the passwords when MAILTEST_OAUTH2_INTROSPECTION_URL
  # names an RFC 7662 introspection endpoint (tests/common/oauth_server.rs): Dovecot POSTs the
  # token there and signs in the `username` it answers while `active` is true.
  local oauth2_passdb=""
  if [ -n "${MAILTEST_OAUTH2_INTROSPECTION_URL:-}" ]; then
    cat > "$T/dovecot/oauth2.conf.ext" << EOF
introspection_mode = post
introspection_url = $MAILTEST_OAUTH2_INTROSPECTION_URL
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
EOF
    chown root:dovecot "$T/dovecot/oauth2.conf.ext"
    chmod 0640 "$T/dovecot/oauth2.conf.ext"
    oauth2_passdb="passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = $T/dovecot/oauth2.conf.ext
}"
  fi

  local zlib_conf=""
  [ -z "${MAILTEST_IMAP_COMPRESS:-}" ] ||
    zlib_conf=$'mail_plugins = $mail_plugins zlib\nprotocol imap {\n  mail_plugins = $mail_plugins imap_zlib\n}'

  # The special-use folders; MAILTEST_GMAIL=1 names them as Gmail does over IMAP (every mail is
  # again in "[Gmail]/All Mail", marked \All; labels are folders): tests/sync/gmail.rs.
  local G="" DRAFTS=Drafts JUNK=Junk TRASH=Trash SENT=${MAILTEST_SENT_NAME:-Sent}
  local ARCHIVE=Archive ARCHIVE_USE=Archive STARRED=""
  if [ -n "${MAILTEST_GMAIL:-}" ]; then
    G="[Gmail]/" JUNK=Spam SENT="[Gmail]/Sent Mail" ARCHIVE="[Gmail]/All Mail" ARCHIVE_USE=All
    STARRED=$'\n  mailbox "[Gmail]/Starred" {\n    special_use = \\Flagged\n    auto = subscribe\n  }'
  fi
  cat > "$T/dovecot/dovecot.conf" << EOF
# Private test instance. Everything lives under $T.
instance_name = mailtest-$IMAP_PORT
hostname = mail.$DOMAIN
base_dir = $T/dovecot/run
state_dir = $T/dovecot/state
log_path = $T/dovecot/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
default_internal_user = dovecot
default_login_user = dovenull
mail_uid = mail
mail_gid = mail
first_valid_uid = $(id -u mail)
first_valid_gid = $(id -g mail)
mail_location = ${MAILTEST_MAIL_LOCATION:-maildir:~/Maildir:LAYOUT=fs}
${MAILTEST_IMAP_CAPABILITY:+imap_capability = $MAILTEST_IMAP_CAPABILITY}
mail_fsync = never
mail_max_userip_connections = 200
auth_mechanisms = plain login${MAILTEST_OAUTH2_INTROSPECTION_URL:+ xoauth2 oauthbearer}
disable_plaintext_auth = no
auth_default_realm = $DOMAIN
auth_failure_delay = 0
ssl = yes
ssl_cert = <$T/ssl/fullchain.pem
ssl_key = <$T/ssl/key.pem

passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $T/dovecot/users
  ${MAILTEST_OAUTH2_INTROSPECTION_URL:+mechanisms = plain login}
}
$oauth2_passdb
userdb {
  driver = passwd-file
  args = username_format=%u $T/dovecot/users
  default_fields = uid=mail gid=mail home=$T/mail/%d/%n
}

namespace inbox {
  inbox = yes
  separator = /
  mailbox "$G$DRAFTS" {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox "$SENT" {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox "$G$JUNK" {
    special_use = \\Junk
    auto = subscribe
  }
  mailbox "$G$TRASH" {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox "$ARCHIVE" {
    special_use = \\$ARCHIVE_USE
    auto = subscribe
  }$STARRED
}

service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0666
  }
}
service anvil {
  # no growing per-IP delay (2..15 s) after failed logins: auth can't reach this socket
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service auth {
  unix_listener auth-postfix {
    mode = 0666
  }
}
protocol lmtp {
  postmaster_address = postmaster@$DOMAIN
}
$zlib_conf
EOF

  # ---- Postfix ----
  # maillog_file (+ prefixes covering DIR, + the postlog service): otherwise Postfix errors go
  # only to a tty/syslog and are lost. smtpd_error_sleep_time = 0: no delay after a refusal.
  printf '%s OK\n' "user1@$DOMAIN" "user2@$DOMAIN" "user3@$DOMAIN" > "$T/postfix/etc/vmailbox"
  cat > "$T/postfix/etc/main.cf" << EOF
compatibility_level = 3.6
queue_directory = $T/postfix/spool
data_directory = $T/postfix/data
maillog_file = $T/postfix/maillog
maillog_file_prefixes = $T
mail_owner = postfix
setgid_group = postdrop
myhostname = mail.$DOMAIN
mydomain = $DOMAIN
myorigin = \$mydomain
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.1/32
smtpd_peername_lookup = no
alias_maps =
alias_database =
local_recipient_maps =
biff = no
virtual_mailbox_domains = $DOMAIN
virtual_mailbox_maps = texthash:$T/postfix/etc/vmailbox
virtual_transport = lmtp:unix:$T/dovecot/run/lmtp
# Nothing ever leaves this machine: mail to other domains is accepted and dropped.
default_transport = discard:test server, external delivery disabled
relay_transport = \$default_transport
smtpd_sasl_type = dovecot
smtpd_sasl_path = $T/dovecot/run/auth-postfix
smtpd_sasl_auth_enable = yes
smtpd_tls_chain_files = $T/ssl/key.pem, $T/ssl/fullchain.pem
smtpd_tls_security_level = may
smtpd_tls_auth_only = no
smtpd_relay_restrictions = permit_sasl_authenticated, reject_unauth_destination
message_size_limit = 52428800
smtpd_error_sleep_time = 0
queue_run_delay = 2s
minimal_backoff_time = 2s
maximal_backoff_time = 10s
EOF
  cat > "$T/postfix/etc/master.cf" << EOF
127.0.0.1:$SMTP_PORT inet n - n - - smtpd
127.0.0.1:$SUBMISSION_PORT inet n - n - - smtpd
  -o syslog_name=postfix/submission
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
127.0.0.1:$SUBMISSIONS_PORT inet n - n - - smtpd
  -o syslog_name=postfix/submissions
  -o smtpd_tls_wrappermode=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
pickup     unix  n - n 60   1 pickup
cleanup    unix  n - n -    0 cleanup
qmgr       unix  n - n 300  1 qmgr
tlsmgr     unix  - - n 1000? 1 tlsmgr
rewrite    unix  - - n -    - trivial-rewrite
bounce     unix  - - n -    0 bounce
defer      unix  - - n -    0 bounce
trace      unix  - - n -    0 bounce
verify     unix  - - n -    1 verify
flush      unix  n - n 1000? 0 flush
proxymap   unix  - - n -    - proxymap
proxywrite unix  - - n -    1 proxymap
smtp       unix  - - n -    - smtp
relay      unix  - - n -    - smtp
showq      unix  n - n -    - showq
error      unix  - - n -    - error
retry      unix  - - n -    - error
discard    unix  - - n -    - discard
lmtp       unix  - - n -    - lmtp
anvil      unix  - - n -    1 anvil
scache     unix  - - n -    1 scache
postlog    unix-dgram n - n - 1 postlogd
EOF

  # Postfix treats files modified in the last ~2 s as "hot" and dozes in 300 ms steps
  # until they cool down (2+ s start-up delay); back-date its config + table files.
  touch -d '1 minute ago' "$T"/postfix/etc/*

  local p ports=("$IMAP_PORT" "$IMAPS_PORT" "$SMTP_PORT" "$SUBMISSION_PORT" "$SUBMISSIONS_PORT")
  [ "$(printf '%s\n' "${ports[@]}" | grep -xE '[0-9]{4,5}' | awk '$1 >= 1024 && $1 <= 65535' |
    sort -u | wc -l)" = 5 ] ||
    {
      echo "ports must be 5 distinct numbers in 1024-65535" >&2
      exit 1
    }
  for p in "${ports[@]}"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2> /dev/null; then
      echo "port $p already in use" >&2
      exit 1
    fi
  done
  # on any failure below: show the logs (postfix prints errors only to a tty) and stop what started
  trap 'tail -n 20 "$T"/dovecot/*.log "$T"/postfix/*.log "$T/postfix/maillog" >&2 2>/dev/null; stop' ERR
  # Dovecot keeps the caller's stderr open for its whole life: never hand it a pipe that a
  # test harness reads to EOF (e.g. Rust Command::output()) -- it would hang.
  dovecot -c "$T/dovecot/dovecot.conf" < /dev/null >> "$T/dovecot/startup.log" 2>&1
  postfix -c "$T/postfix/etc" start < /dev/null >> "$T/postfix/startup.log" 2>&1
  for p in "${ports[@]}"; do wait_port "$p"; done
  trap - ERR
  echo "MAILTEST_DIR=$T"
  echo "MAILTEST_CA=$T/ssl/ca.pem"
  echo "MAILTEST_IMAP_PORT=$IMAP_PORT"
  echo "MAILTEST_IMAPS_PORT=$IMAPS_PORT"
  echo "MAILTEST_SMTP_PORT=$SMTP_PORT"
  echo "MAILTEST_SUBMISSION_PORT=$SUBMISSION_PORT"
  echo "MAILTEST_SUBMISSIONS_PORT=$SUBMISSIONS_PORT"
  echo "MAILTEST_DOVECOT_PID=$(cat "$T/dovecot/run/master.pid")"
  echo "MAILTEST_POSTFIX_PID=$(tr -d ' ' < "$T/postfix/spool/pid/master.pid")"
}

# seed: bulk load. Per-message `doveadm save` (or LMTP/APPEND) costs milliseconds each, minutes
# for 60,000. With the default Maildir storage the files go straight into the mailbox's cur/
# with Dovecot's own name format (S= and W= sizes, so FETCH RFC822.SIZE needs no scan), then
# one `doveadm force-resync` assigns UIDs (in SOURCE order) and builds the index; a running
# server and its IDLE clients see them at once. Files needing no change (no mbox From line) are
# hard-linked, not copied, when SOURCE is on the same file system: no data I/O and no second
# 400 MB for a 60,000-message run; SOURCE's files get their mtime set to their Date header,
# which is also the messages' INTERNALDATE. `doveadm import` from a staging Maildir was
# measured too: no faster, since the files must be written first anyway. Measured on the
# 2-core VM: 3,250 corpus messages 0.5-1.2 s; 60,000 7-22 s, almost all of it file-system
# metadata and data I/O, which swings with whatever else writes to the disk. Other storages
# (MAILTEST_MAIL_LOCATION=sdbox:...) go through a Maildir staging copy and one `doveadm
# import` (60,000: ~20 s).
seed() {
  local user=$1 src=$2 folder=${MAILTEST_SEED_FOLDER:-INBOX}
  [[ $user == *@* ]] || user="$user@$DOMAIN"
  [ -d "$src" ] || {
    echo "seed: $src is not a directory" >&2
    exit 1
  }
  src=$(cd "$src" && pwd)
  if ! { [ -s "$T/dovecot/run/master.pid" ] && alive "$(cat "$T/dovecot/run/master.pid")"; }; then
    echo "seed: no running server in $T (doveadm needs its auth socket): run start first" >&2
    exit 1
  fi
  local conf="$T/dovecot/dovecot.conf"
  da() { doveadm -c "$conf" "$@"; }
  # Creates the mailbox (and subscribes it) if it does not exist yet; INBOX always exists.
  da mailbox status -u "$user" messages "$folder" > /dev/null 2>&1 ||
    da mailbox create -s -u "$user" "$folder"
  local before location path stage="" started=$EPOCHREALTIME
  before=$(da -f flow mailbox status -u "$user" messages "$folder" | sed 's/.*messages=//')
  location=$(doveconf -c "$conf" -h mail_location)
  if [[ $location == maildir:* ]]; then
    path=$(da mailbox path -u "$user" "$folder")
  else
    stage=$(mktemp -d "$T/seed-stage.XXXXXX")
    # In a LAYOUT=fs Maildir, INBOX is the root directory itself.
    if [ "${folder^^}" = INBOX ]; then path=$stage; else path="$stage/$folder"; fi
  fi
  local written
  written=$(python3 - "$src" "$path" "$(id -u mail)" "$(id -g mail)" "${MAILTEST_SEED_FLAGS:-}" "${MAILTEST_SEED_COPY:-}" << 'PY'
import email.utils, os, re, sys, time

src, dest, uid, gid, extra_flags = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
link_ok = sys.argv[6] != "1"

def mkdir_mail(path):
    # Dovecot (running as mail) must own every directory it may write in.
    parts = []
    while not os.path.isdir(path):
        parts.append(path)
        path = os.path.dirname(path)
    for p in reversed(parts):
        os.mkdir(p, 0o700)
        os.chown(p, uid, gid)

for sub in ("cur", "new", "tmp"):
    mkdir_mail(os.path.join(dest, sub))

# A Maildir source keeps its order (cur/, then new/) and its flags; otherwise the regular,
# non-hidden files of the directory, in name order, with no flags.
entries = []
if os.path.isdir(os.path.join(src, "cur")) or os.path.isdir(os.path.join(src, "new")):
    for sub in ("cur", "new"):
        d = os.path.join(src, sub)
        if os.path.isdir(d):
            for n in sorted(os.listdir(d)):
                flags = n.split(":2,", 1)[1] if sub == "cur" and ":2," in n else ""
                entries.append((os.path.join(d, n), flags))
else:
    names = sorted(n for n in os.listdir(src) if not n.startswith("."))
    # A fixture directory (tests/fixtures/hebrew) mixes NAME.eml with NAME.json: when there is
    # any .eml file, only the .eml files are messages.
    if any(n.endswith(".eml") for n in names):
        names = [n for n in names if n.endswith(".eml")]
    entries = [(os.path.join(src, n), "") for n in names]

date_re = re.compile(rb"^date:[ \t]*(.*(?:\r?\n[ \t].*)*)", re.I | re.M)
header_end = re.compile(rb"\n\r?\n")
now = int(time.time())
pid = os.getpid()
count = 0
for path, flags in entries:
    if not os.path.isfile(path):
        continue
    with open(path, "rb") as f:
        data = f.read()
    st = os.stat(path)
    # Corpus files (SpamAssassin) start with an mbox "From " envelope line: not part of the message.
    strip = data.startswith(b"From ")
    if strip:
        nl = data.find(b"\n")
        data = data[nl + 1:] if nl >= 0 else b""
    flags = "".join(sorted(set(c for c in flags + extra_flags if c in "DFPRST")))
    size = len(data)
    vsize = size + data.count(b"\n") - data.count(b"\r\n")  # as sent over IMAP, with CRLF
    # Dovecot gives new cur/ files UIDs in file-name order: seconds, then the M field, so a
    # zero-padded counter keeps SOURCE's order. S= and W= spare Dovecot a stat/scan per FETCH.
    name = "%d.M%07dP%d.mailtest,S=%d,W=%d:2,%s" % (now, count, pid, size, vsize, flags)
    # INTERNALDATE of a Maildir message is the file's mtime: use the Date header when it parses.
    ts = None
    end = header_end.search(data, 0, 262144)
    m = date_re.search(data, 0, end.start() if end else 65536)
    if m:
        try:
            t = email.utils.parsedate_tz(m.group(1).decode("latin-1"))
            if t and 0 < email.utils.mktime_tz(t) < 2**31:
                ts = email.utils.mktime_tz(t)
        except (ValueError, OverflowError):
            pass
    final = os.path.join(dest, "cur", name)
    # Writing 60,000 files (400+ MB) is disk-bound and swings 4-30 s on a busy VM; a hard link
    # costs no data I/O. Dovecot never rewrites a Maildir file (flags live in the name, expunge
    # unlinks), so sharing the inode with SOURCE is safe, as long as the file is byte-exact
    # (no From line to strip) and readable by the mail user. Side effect: SOURCE's file gets
    # the mtime too (set first, so the file never shows up in cur/ with the wrong date).
    if link_ok and not strip and (st.st_mode & 0o004 or st.st_uid == uid):
        try:
            if ts is not None:
                os.utime(path, (ts, ts))
            os.link(path, final)
            count += 1
            continue
        except OSError:  # another file system (EXDEV), or not allowed: copy instead
            pass
    # Copy through tmp/ + rename, as the Maildir protocol wants: a running server never sees
    # half a file.
    tmp = os.path.join(dest, "tmp", name)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data)
        os.fchown(fd, uid, gid)
    finally:
        os.close(fd)
    if ts is not None:
        os.utime(tmp, (ts, ts))
    os.rename(tmp, final)
    count += 1
print(count)
PY
  )
  if [ -n "$stage" ]; then
    # Only the directories: the files may be hard links to SOURCE (already readable by mail).
    find "$stage" -type d -exec chown mail:mail {} +
    da import -u "$user" "maildir:$stage:LAYOUT=fs" "" mailbox "$folder"
    rm -rf "$stage"
  else
    da force-resync -u "$user" "$folder"
  fi
  local after elapsed
  after=$(da -f flow mailbox status -u "$user" messages "$folder" | sed 's/.*messages=//')
  if [ "$((after - before))" != "$written" ]; then
    echo "seed: wrote $written files but $folder grew by $((after - before))" >&2
    exit 1
  fi
  elapsed=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
  echo "MAILTEST_SEED_USER=$user"
  echo "MAILTEST_SEED_FOLDER=$folder"
  echo "MAILTEST_SEED_ADDED=$((after - before))"
  echo "MAILTEST_SEED_TOTAL=$after"
  echo "MAILTEST_SEED_SECONDS=$elapsed"
}

case $cmd in
  install) install ;;
  start) T=$2; start ;;
  stop) T=$2; stop ;;
  seed) T=$(cd "$2" && pwd); seed "$3" "$4" ;;
esac
