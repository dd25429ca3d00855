#!/usr/bin/env python3
"""Inbox latency benchmark: what the inbox page asks of the server, at N messages.

Builds N messages from the SpamAssassin corpus (scripts/corpus.sh repeat), loads them into a
fresh test Dovecot's INBOX, connects the release binary's `serve`, waits for the initial sync,
triages a tenth of the mail through the bulk API (info, advertisement, needs_reply, urgent, so
every listing and counter has rows) and waits until the mailbox is idle again. Then, over 200
kept-alive requests each, it times (end to end on loopback, so an upper bound of server time):

  open inbox      GET /api/threads/inbox (50 threads, total counted)
  switch folder   GET /api/threads/{Updates,Promotions,starred,sent} in turn
  open mail       GET /api/emails/{id} for 200 different mails of the first pages
  counts          GET /api/emails/counts
  inbox zero      GET /api/emails/inbox-zero

Usage: bench/inbox_bench.py [--size 60000] [--binary target/release/mailclient] [--markdown]
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sync_bench import (ROOT, SCRIPT, start_mailclient, start_mailserver,  # noqa: E402
                        seed_mailserver, stop_mailclient, stop_mailserver)


def percentile(samples, p):
    s = sorted(samples)
    return s[min(len(s) - 1, int(len(s) * p))]


def timed(api, paths, rounds=200):
    samples = []
    for i in range(rounds):
        path = paths[i % len(paths)]
        t = time.perf_counter()
        status, body, _ = api.call("GET", path)
        samples.append((time.perf_counter() - t) * 1000)
        assert status == 200, (path, body)
    return statistics.median(samples), percentile(samples, 0.95)


def wait_idle(api, timeout=600):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _, v, _ = api.call("GET", "/api/auth/accounts")
        sync = v["accounts"][0]["sync"] or {}
        if sync.get("initialSyncDone") and sync.get("state") == "idle":
            return
        time.sleep(0.1)
    raise SystemExit("the mailbox never became idle")


def triage(api, n):
    """Triages a tenth of the inbox (n messages), 1,000 mails per bulk call, spread over four
    statuses, stars 50, and waits until the mailbox is idle again. Returns how many were triaged."""
    rows = []
    page = 1
    while len(rows) < n // 10:
        _, batch, _ = api.call("GET", f"/api/emails/inbox?perPage=500&page={page}")
        if not batch:
            break
        rows += [r["id"] for r in batch]
        page += 2  # every other page: triaged mail spread through the folder
    statuses = ["info", "advertisement", "needs_reply", "urgent"]
    for i in range(0, len(rows), 1000):
        status = statuses[(i // 1000) % len(statuses)]
        s, v, _ = api.call("POST", "/api/emails/bulk",
                           {"ids": rows[i:i + 1000], "action": "status", "status": status})
        assert s == 200, v
    api.call("POST", "/api/emails/bulk", {"ids": rows[:50], "action": "star"})
    api.call("POST", "/api/sync/refresh")
    time.sleep(1)
    wait_idle(api)
    return len(rows)


def measure(api, rounds=200):
    """The inbox's requests, `rounds` kept-alive requests each: {"threads": total, "results":
    {name: (p50, p95)}}."""
    _, _, r = api.call("GET", "/api/threads/inbox?perPage=1")
    threads_total = int(r.getheader("x-total-count"))
    _, first, _ = api.call("GET", "/api/emails/inbox?perPage=200")
    mail_paths = [f"/api/emails/{m['id']}" for m in first]
    results = {
        "open inbox (50 threads)": timed(api, ["/api/threads/inbox"], rounds),
        "switch folder": timed(api, [f"/api/threads/{f}" for f in ["Updates", "Promotions", "starred", "sent"]], rounds),
        "open a mail": timed(api, mail_paths, rounds),
        "folder counts": timed(api, ["/api/emails/counts"], rounds),
        "inbox zero": timed(api, ["/api/emails/inbox-zero"], rounds),
    }
    return {"threads": threads_total, "results": results}


def run(binary, n):
    work = tempfile.mkdtemp(prefix=f"inboxbench-{n}-")
    os.chmod(work, 0o755)
    corpus = os.path.join(work, "corpus")
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "corpus.sh"), "repeat", str(n), corpus],
                   check=True, stdout=subprocess.DEVNULL)
    msdir, ms = start_mailserver(work)
    proc = None
    try:
        seed_mailserver(msdir, corpus)
        proc, api = start_mailclient(binary, ms, work)
        account = {"email_address": "user1@example.test", "password": "pass1", "imap_server": "127.0.0.1",
                   "imap_port": int(ms["MAILTEST_IMAPS_PORT"]), "imap_ssl": True,
                   "smtp_server": "127.0.0.1", "smtp_port": int(ms["MAILTEST_SUBMISSIONS_PORT"]),
                   "smtp_ssl": True}
        status, v, _ = api.call("POST", "/api/auth/login", account)
        assert status == 200, v
        wait_idle(api)
        triaged = triage(api, n)
        out = measure(api)
        out["triaged"] = triaged
        return out
    finally:
        if proc:
            stop_mailclient(proc)
        stop_mailserver(msdir)
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=60000)
    ap.add_argument("--binary", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "mailclient"))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    if not os.path.exists(args.binary):
        raise SystemExit(f"build the release binary first (cargo build --release): {args.binary} is missing")
    subprocess.run(["bash", SCRIPT, "install"], check=True)
    out = run(args.binary, args.size)
    print(f"N={args.size}: {out['threads']} threads in the inbox, {out['triaged']} mails triaged")
    for name, (p50, p95) in out["results"].items():
        print(f"  {name:26} p50 {p50:6.2f} ms   p95 {p95:6.2f} ms")
    if args.markdown:
        print(f"\n| request ({args.size:,} messages) | p50 | p95 |\n|---|---|---|")
        for name, (p50, p95) in out["results"].items():
            print(f"| {name} | {p50:.1f} ms | {p95:.1f} ms |")


if __name__ == "__main__":
    main()
