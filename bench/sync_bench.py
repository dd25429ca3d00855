#!/usr/bin/env python3
"""Initial-sync benchmark: mailclient against mbsync, same Dovecot, same mailbox, one run.

For each N (default 6000 and 60000): builds N messages from the SpamAssassin corpus (unique
Message-IDs, consistent References; scripts/corpus.sh repeat), loads them into a fresh test
Dovecot (scripts/mail-test-server.sh), then
  * mailclient: `serve` (release build), connect the mailbox over IMAPS, time from the connect
    call until the account reports its initial sync done; peak RSS of the server process;
    then the inbox's first page (GET /api/emails/inbox) p50/p95 over 200 kept-alive requests;
  * mbsync (isync, defaults) pulling the same INBOX over IMAPS into a Maildir; time and peak RSS.
Prints a table; `--markdown` prints rows for docs/BENCHMARKS.md.

Usage: bench/sync_bench.py [--sizes 6000,60000] [--binary target/release/mailclient]
"""
import argparse, http.client, json, os, resource, shutil, socket, statistics, subprocess
import sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "mail-test-server.sh")


def free_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket(); s.bind(("127.0.0.1", 0)); socks.append(s); ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def env_lines(text):
    return dict(l.split("=", 1) for l in text.splitlines() if "=" in l)


def peak_rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None


class Api:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.token = None

    def call(self, method, path, body=None):
        headers = {"content-type": "application/json"}
        if self.token:
            headers["authorization"] = self.token
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        r = self.conn.getresponse()
        data = r.read()
        self.last_bytes = len(data)  # the answer's body as sent (bench/big_bench.py: page size)
        return r.status, (json.loads(data) if data else None), r


def start_mailclient(binary, ms, work, extra_config=""):
    """A fresh data dir (work/mc-data) with one user, `serve` on a free port, signed in to the
    app (no mail account yet): (process, Api). `extra_config` is appended to its TOML."""
    data = os.path.join(work, "mc-data")
    cfg = os.path.join(work, "mc.toml")
    with open(cfg, "w") as f:
        f.write(f'[mail]\nextra_ca_files = ["{ms["MAILTEST_CA"]}"]\n{extra_config}')
    subprocess.run([binary, "--config", cfg, "--data-dir", data, "user", "add", "bench", "--admin"],
                   input=b"bench password 1\n", check=True, capture_output=True)
    return serve_mailclient(binary, cfg, data)


def serve_mailclient(binary, cfg, data):
    """`serve` on the data dir `data` (its user made by start_mailclient) on a free port, signed
    in to the app: (process, Api). bench/shaped_bench.py restarts it so on a synced data dir."""
    port = free_ports(1)[0]
    proc = subprocess.Popen([binary, "--config", cfg, "--data-dir", data, "serve", "--listen", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "RUST_LOG": "warn"})
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close(); break
            except OSError:
                time.sleep(0.05)
        api = Api(port)
        _, v, _ = api.call("POST", "/api/app/login", {"username": "bench", "password": "bench password 1"})
        api.token = v["token"]
    except BaseException:
        stop_mailclient(proc)
        raise
    return proc, api


def stop_mailclient(proc):
    proc.terminate(); proc.wait(timeout=30)


def initial_sync(api, proc, ms):
    """Connects the test user's mailbox and waits for the initial sync: seconds, peak RSS (MB),
    messages in the inbox, and when the inbox's first page of 50 was first there."""
    # MAILTEST_IMAP_HOST: where the clients reach the IMAP server (bench/shaped_bench.py: its
    # relay at the far end of a shaped link); the test server's own loopback otherwise.
    account = {"email_address": "user1@example.test", "password": "pass1",
               "imap_server": ms.get("MAILTEST_IMAP_HOST", "127.0.0.1"),
               "imap_port": int(ms["MAILTEST_IMAPS_PORT"]), "imap_ssl": True, "smtp_server": "127.0.0.1",
               "smtp_port": int(ms["MAILTEST_SUBMISSIONS_PORT"]), "smtp_ssl": True}
    t0 = time.monotonic()
    status, v, _ = api.call("POST", "/api/auth/login", account)
    assert status == 200, v
    first_page_at = None
    while True:
        _, v, _ = api.call("GET", "/api/auth/accounts")
        sync = v["accounts"][0]["sync"] or {}
        if first_page_at is None:
            _, page, _ = api.call("GET", "/api/emails/inbox?perPage=50")
            if page and len(page) >= 50:
                first_page_at = time.monotonic() - t0
        if sync.get("initialSyncDone") and sync.get("state") == "idle":
            break
        time.sleep(0.05)
    elapsed = time.monotonic() - t0
    rss = peak_rss_kb(proc.pid)
    _, _, r = api.call("GET", "/api/emails/inbox?perPage=1")
    total = int(r.getheader("x-total-count"))
    return {"seconds": elapsed, "rss_mb": rss / 1024 if rss else None, "total": total,
            "first_page_s": first_page_at}


def inbox_page_latency(api, rounds=200):
    """GET /api/emails/inbox (50 rows, total counted), `rounds` kept-alive requests: p50, p95 ms."""
    samples = []
    for _ in range(rounds):
        s = time.perf_counter()
        status, page, _ = api.call("GET", "/api/emails/inbox")
        samples.append((time.perf_counter() - s) * 1000)
        assert status == 200 and len(page) == 50
    samples.sort()
    return {"p50_ms": statistics.median(samples), "p95_ms": samples[int(len(samples) * 0.95)]}


def run_mailclient(binary, ms, work):
    proc, api = start_mailclient(binary, ms, work)
    try:
        out = initial_sync(api, proc, ms)
        out.update(inbox_page_latency(api))
        return out
    finally:
        stop_mailclient(proc)


def run_mbsync(ms, work):
    maildir = os.path.join(work, "mbsync-mail")
    os.makedirs(maildir, exist_ok=True)
    rc = os.path.join(work, "mbsyncrc")
    with open(rc, "w") as f:
        f.write(f"""IMAPAccount bench
Host {ms.get('MAILTEST_IMAP_HOST', 'localhost')}
Port {ms['MAILTEST_IMAPS_PORT']}
User user1@example.test
Pass pass1
SSLType IMAPS
CertificateFile {ms['MAILTEST_CA']}

IMAPStore bench-remote
Account bench

MaildirStore bench-local
Path {maildir}/
Inbox {maildir}/INBOX

Channel bench
Far :bench-remote:
Near :bench-local:
Patterns INBOX
Sync Pull
Create Near
SyncState *
""")
    t0 = time.monotonic()
    proc = subprocess.Popen(["mbsync", "-c", rc, "-q", "bench"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.monotonic() - t0
    if status != 0:
        raise SystemExit(f"mbsync failed: {proc.stderr.read().decode()}")
    count = len(os.listdir(os.path.join(maildir, "INBOX", "cur"))) + len(os.listdir(os.path.join(maildir, "INBOX", "new")))
    return {"seconds": elapsed, "rss_mb": usage.ru_maxrss / 1024, "total": count}


def start_mailserver(work):
    """A fresh test Dovecot + Postfix in work/mailserver on free ports: (its dir, its MAILTEST_* values)."""
    msdir = os.path.join(work, "mailserver")
    ports = free_ports(5)
    env = {**os.environ, **{f"MAILTEST_{k}_PORT": str(p) for k, p in zip(["IMAP", "IMAPS", "SMTP", "SUBMISSION", "SUBMISSIONS"], ports)}}
    ms = env_lines(subprocess.run(["bash", SCRIPT, "start", msdir], env=env, check=True, capture_output=True, text=True).stdout)
    return msdir, ms


def seed_mailserver(msdir, corpus):
    """Loads every message file of corpus into user1's INBOX, then warms Dovecot's index once so
    neither client pays for the first scan."""
    subprocess.run(["bash", SCRIPT, "seed", msdir, "user1@example.test", corpus], check=True, capture_output=True)
    subprocess.run(["doveadm", "-c", os.path.join(msdir, "dovecot", "dovecot.conf"), "mailbox", "status", "-u", "user1@example.test", "messages", "INBOX"], check=True, capture_output=True)


def stop_mailserver(msdir):
    subprocess.run(["bash", SCRIPT, "stop", msdir], capture_output=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="6000,60000")
    ap.add_argument("--binary", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "mailclient"))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    if not os.path.exists(args.binary):
        raise SystemExit(f"build the release binary first (cargo build --release): {args.binary} is missing")
    subprocess.run(["bash", SCRIPT, "install"], check=True)
    rows = []
    for n in [int(x) for x in args.sizes.split(",")]:
        work = tempfile.mkdtemp(prefix=f"syncbench-{n}-")
        os.chmod(work, 0o755)
        corpus = os.path.join(work, "corpus")
        subprocess.run(["bash", os.path.join(ROOT, "scripts", "corpus.sh"), "repeat", str(n), corpus], check=True, stdout=subprocess.DEVNULL)
        msdir, ms = start_mailserver(work)
        try:
            seed_mailserver(msdir, corpus)
            mb = run_mbsync(ms, work)
            mc = run_mailclient(args.binary, ms, work)
        finally:
            stop_mailserver(msdir)
            shutil.rmtree(work, ignore_errors=True)
        rows.append((n, mc, mb))
        print(f"N={n}: mailclient {mc['total']} msgs in {mc['seconds']:.1f}s = {mc['total']/mc['seconds']:.0f} msg/s, "
              f"peak RSS {mc['rss_mb']:.0f} MB, first page after {mc['first_page_s'] or 0:.2f}s, "
              f"inbox page p50 {mc['p50_ms']:.2f} ms p95 {mc['p95_ms']:.2f} ms | "
              f"mbsync {mb['total']} msgs in {mb['seconds']:.1f}s = {mb['total']/mb['seconds']:.0f} msg/s, "
              f"peak RSS {mb['rss_mb']:.0f} MB | ratio {(mc['total']/mc['seconds'])/(mb['total']/mb['seconds']):.2f}x",
              flush=True)
    if args.markdown:
        print("\n| messages | mailclient msg/s | mailclient peak RSS | inbox usable after | inbox page p50 / p95 | mbsync msg/s | mbsync peak RSS | ratio |")
        print("|---|---|---|---|---|---|---|---|")
        for n, mc, mb in rows:
            a, b = mc["total"] / mc["seconds"], mb["total"] / mb["seconds"]
            print(f"| {n:,} | {a:,.0f} | {mc['rss_mb']:.0f} MB | {mc['first_page_s'] or 0:.2f} s | {mc['p50_ms']:.1f} / {mc['p95_ms']:.1f} ms | {b:,.0f} | {mb['rss_mb']:.0f} MB | {a/b:.2f}× |")


if __name__ == "__main__":
    main()
