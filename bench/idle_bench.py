#!/usr/bin/env python3
"""What the always-on daemon costs while nothing happens (issue 42, "a daemon that sleeps").

Three app users, each with a connected mailbox (user1..3 of a fresh test Dovecot, a few hundred
corpus mails each), `serve` left alone once every initial sync is done and the search index has
caught up; then, over `--seconds` (default 600), from /proc:
  * CPU: the process's user + system time over the window, as % of one core;
  * wake-ups: the voluntary context switches of all its threads, per second (each time a
    thread slept and was woken: a timer, a poll, a socket), read once a second so the threads
    that end or start in the window count too; the involuntary ones (preemption, which other
    load on the machine causes) are printed beside them;
  * RSS at the end (idle memory).
Then one new mail delivered to user1 over SMTP: how long until it is in the inbox listing.
Prints the figures with PASS/FAIL against the issue's goals (< 0.1% of a core, < 5 wake-ups a
second, idle RSS < 80 MB); `--markdown` prints a row for docs/BENCHMARKS.md.

Usage: bench/idle_bench.py [--seconds 600] [--binary target/release/mailclient] [--markdown]
"""
import argparse, os, shutil, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sync_bench import (Api, ROOT, SCRIPT, start_mailclient, start_mailserver, stop_mailclient,  # noqa: E402
                        stop_mailserver)

GOAL_CPU_PCT, GOAL_WAKEUPS, GOAL_RSS_MB = 0.1, 5.0, 80.0
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system time of the whole process (all threads), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def thread_counts(pid):
    """{tid: (name, voluntary, involuntary)} for every thread alive now."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = f.read().strip()
            vol = invol = 0
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches"):
                        vol = int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches"):
                        invol = int(line.split()[1])
            out[tid] = (name, vol, invol)
        except OSError:
            pass  # a thread that ended meanwhile
    return out


def watch_switches(pid, seconds):
    """The context switches of every thread over `seconds`, read from /proc once a second so a
    thread that ends meanwhile (the runtime's blocking pool lets idle threads go after 10 s)
    keeps what it did, and one born meanwhile counts from zero. Returns (voluntary, involuntary,
    {thread name: voluntary})."""
    first = thread_counts(pid)
    last = dict(first)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(min(1.0, max(0.0, end - time.monotonic())))
        last.update(thread_counts(pid))
    vol = invol = 0
    by_name = {}
    for tid, (name, v, i) in last.items():
        _, v0, i0 = first.get(tid, (name, 0, 0))
        vol += v - v0
        invol += i - i0
        by_name[name] = by_name.get(name, 0) + v - v0
    return vol, invol, by_name


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return None


def seed(msdir, corpus_dir, user, n):
    """`n` corpus mails into `user`'s INBOX."""
    files = sorted(os.listdir(corpus_dir))[:n]
    one = tempfile.mkdtemp(prefix="idle-seed-")
    os.chmod(one, 0o755)  # Dovecot (user mail) reads the seeded files
    try:
        for name in files:
            shutil.copy(os.path.join(corpus_dir, name), os.path.join(one, name))
        subprocess.run(["bash", SCRIPT, "seed", msdir, user, one], check=True, capture_output=True)
    finally:
        shutil.rmtree(one, ignore_errors=True)


def connect(api, ms, n):
    account = {"email_address": f"user{n}@example.test", "password": f"pass{n}", "imap_server": "127.0.0.1",
               "imap_port": int(ms["MAILTEST_IMAPS_PORT"]), "imap_ssl": True, "smtp_server": "127.0.0.1",
               "smtp_port": int(ms["MAILTEST_SUBMISSIONS_PORT"]), "smtp_ssl": True}
    status, v, _ = api.call("POST", "/api/auth/login", account)
    assert status == 200, v


def add_user(admin, name):
    """Another app user, made by the admin over the API."""
    status, v, _ = admin.call("POST", "/api/admin/users",
                              {"username": name, "name": name, "password": f"{name} password 1", "role": "user"})
    assert status in (200, 201), v


def synced(api):
    _, v, _ = api.call("GET", "/api/auth/accounts")
    return all((a["sync"] or {}).get("initialSyncDone") and a["sync"].get("state") == "idle" for a in v["accounts"])


def deliver(ms, raw):
    """Plain SMTP to the test Postfix's MX port, as an outside sender."""
    s = socket.create_connection(("127.0.0.1", int(ms["MAILTEST_SMTP_PORT"])), timeout=30)
    f = s.makefile("rwb")

    def reply():
        while True:
            line = f.readline().decode()
            if line[3:4] == " ":
                return line

    reply()
    for cmd in ["EHLO bench.local", "MAIL FROM:<outside@sender.test>", "RCPT TO:<user1@example.test>", "DATA"]:
        f.write(cmd.encode() + b"\r\n"); f.flush(); reply()
    f.write(raw.replace("\n", "\r\n").encode() + b"\r\n.\r\n"); f.flush(); reply()
    f.write(b"QUIT\r\n"); f.flush(); s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--mails", type=int, default=300, help="mails per mailbox")
    ap.add_argument("--binary", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "mailclient"))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    corpus = subprocess.check_output([os.path.join(ROOT, "scripts/corpus.sh"), "eval"], text=True).strip()
    work = tempfile.mkdtemp(prefix="idle-bench-")
    os.chmod(work, 0o755)  # Postfix and Dovecot's users work below it
    msdir = None
    proc = None
    try:
        msdir, ms = start_mailserver(work)
        for n in (1, 2, 3):
            seed(msdir, corpus, f"user{n}@example.test", args.mails)
        proc, admin = start_mailclient(args.binary, ms, work)
        port = admin.conn.port
        apis = [admin]
        for name in ("bench2", "bench3"):
            add_user(admin, name)
            api = Api(port)
            _, v, _ = api.call("POST", "/api/app/login", {"username": name, "password": f"{name} password 1"})
            api.token = v["token"]
            apis.append(api)
        for n, api in enumerate(apis, start=1):
            connect(api, ms, n)
        while not all(synced(a) for a in apis):
            time.sleep(0.5)
        # The index catches up and the first runs of every job pass.
        time.sleep(30)
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        vol, invol, by_name = watch_switches(proc.pid, args.seconds)
        c1, t1 = cpu_seconds(proc.pid), time.monotonic()
        rss = rss_mb(proc.pid)
        window = t1 - t0
        cpu_pct = 100 * (c1 - c0) / window
        wakeups = vol / window
        preempted = invol / window
        by_thread = sorted(((n / window, k) for k, n in by_name.items()), reverse=True)[:6]
        # One new mail over IDLE: until it is listed (a new connection: the idle one was closed).
        admin = Api(port)
        admin.token = apis[0].token
        mid = f"<idle-bench-{int(time.time())}@sender.test>"
        t_new = time.monotonic()
        date = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime())
        deliver(ms, f"From: outside@sender.test\nTo: user1@example.test\nSubject: idle bench\n"
                    f"Date: {date}\nMessage-ID: {mid}\n\nhello\n")
        while True:
            _, page, _ = admin.call("GET", "/api/emails/inbox?perPage=5")
            if any(m.get("messageId") == mid.strip("<>") for m in page or []):
                break
            if time.monotonic() - t_new > 120:
                raise SystemExit(f"the new mail never showed (idle: {cpu_pct:.3f}% CPU, {wakeups:.1f} wake-ups/s)")
            time.sleep(0.05)
        arrival = time.monotonic() - t_new
    finally:
        if proc:
            stop_mailclient(proc)
        if msdir:
            stop_mailserver(msdir)
        shutil.rmtree(work, ignore_errors=True)

    def verdict(ok):
        return "PASS" if ok else "FAIL"

    print(f"idle window: {window:.0f} s, 3 users, 3 mailboxes of {args.mails} mails")
    print(f"CPU: {cpu_pct:.3f}% of one core  (goal < {GOAL_CPU_PCT}%)  {verdict(cpu_pct < GOAL_CPU_PCT)}")
    print(f"wake-ups: {wakeups:.1f} per second  (goal < {GOAL_WAKEUPS})  {verdict(wakeups < GOAL_WAKEUPS)}"
          f"  (and {preempted:.1f} preemptions a second)")
    print("wake-ups by thread: " + ", ".join(f"{name} {rate:.1f}/s" for rate, name in by_thread))
    print(f"idle RSS: {rss:.0f} MB  (goal < {GOAL_RSS_MB:.0f} MB)  {verdict(rss < GOAL_RSS_MB)}")
    print(f"a new mail listed after: {arrival:.2f} s")
    if args.markdown:
        print(f"| {window:.0f} s | {cpu_pct:.3f}% | {wakeups:.1f}/s ({preempted:.1f}) | {rss:.0f} MB | {arrival:.2f} s |")


if __name__ == "__main__":
    main()
