#!/usr/bin/env python3
"""Send benchmark: N mails (default 100) through the real binary to Postfix on loopback.

For each binary given (e.g. the build before and after a change): a fresh test Dovecot + Postfix
(scripts/mail-test-server.sh) and a fresh data dir; `serve` with `[compose] undo_send_secs = 0`;
user1's mailbox connected with SMTP on the submission port (STARTTLS, AUTH, the test CA in
`[mail] extra_ca_files`). Then N sends through POST /api/emails/send, each a Hebrew mail (subject,
names, an HTML body of a few paragraphs) to user2, and the clock runs until all N are in user2's
INBOX (delivered) and the outbox is empty (every copy filed in Sent). Reports the time for the N
API calls, the time until all were delivered and filed, mails per second, and the server's peak
RSS. `--markdown` prints rows for docs/BENCHMARKS.md.

Usage: bench/send_bench.py [--count 100] [--runs 3] BINARY [BINARY...]
"""
import argparse, os, shutil, subprocess, tempfile, time

from sync_bench import (SCRIPT, peak_rss_kb, start_mailserver, stop_mailserver)
import sync_bench


def start(binary, ms, work):
    """`serve` with no undo delay, signed in, user1's mailbox connected: (process, Api)."""
    proc, api = sync_bench.start_mailclient(binary, ms, work, "[compose]\nundo_send_secs = 0\n")
    try:
        account = {"email_address": "user1@example.test", "password": "pass1", "imap_server": "127.0.0.1",
                   "imap_port": int(ms["MAILTEST_IMAPS_PORT"]), "imap_ssl": True, "smtp_server": "127.0.0.1",
                   "smtp_port": int(ms["MAILTEST_SUBMISSION_PORT"]), "smtp_ssl": False}
        status, v, _ = api.call("POST", "/api/auth/login", account)
        assert status == 200, v
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            _, v, _ = api.call("GET", "/api/auth/accounts")
            sync = v["accounts"][0]["sync"] or {}
            if sync.get("initialSyncDone") and sync.get("state") == "idle":
                break
            time.sleep(0.05)
    except BaseException:
        proc.terminate(); proc.wait(timeout=30)
        raise
    return proc, api


def inbox_count(msdir, user):
    out = subprocess.run(["doveadm", "-c", os.path.join(msdir, "dovecot", "dovecot.conf"), "-f", "flow",
                          "mailbox", "status", "-u", user, "messages", "INBOX"],
                         check=True, capture_output=True, text=True).stdout
    return int(out.split("=")[1])


BODY = ("<p>שלום אבי,</p><p>מצורף הסיכום של פגישת הצוות מיום שלישי. עברנו על לוח הזמנים של "
        "הרבעון, על התקציב ועל המשימות הפתוחות, ונקבע פגישת המשך לשבוע הבא.</p>"
        "<ul><li>לוח זמנים</li><li>תקציב</li><li>משימות</li></ul><p>תודה, דנה</p>")


def run(binary, count):
    work = tempfile.mkdtemp(prefix="sendbench-")
    os.chmod(work, 0o755)
    msdir, ms = start_mailserver(work)
    proc = None
    try:
        proc, api = start(binary, ms, work)
        t0 = time.monotonic()
        for i in range(count):
            status, v, _ = api.call("POST", "/api/emails/send", {
                "to": ['"אבי לוי" <user2@example.test>'],
                "subject": f"סיכום פגישה {i + 1} מתוך {count}",
                "body": BODY,
            })
            assert status == 200, v
        queued = time.monotonic() - t0
        deadline = t0 + 600
        delivered = filed = None
        while time.monotonic() < deadline and (delivered is None or filed is None):
            if delivered is None and inbox_count(msdir, "user2@example.test") >= count:
                delivered = time.monotonic() - t0
            if filed is None:
                _, v, _ = api.call("GET", "/api/outbox")
                if not v["items"]:
                    filed = time.monotonic() - t0
            time.sleep(0.05)
        if delivered is None or filed is None:
            raise SystemExit(f"not done after 600 s: delivered={delivered} filed={filed}")
        rss = peak_rss_kb(proc.pid)
        return {"queued_s": queued, "delivered_s": delivered, "filed_s": filed,
                "rss_mb": rss / 1024 if rss else None}
    finally:
        if proc:
            proc.terminate(); proc.wait(timeout=30)
        stop_mailserver(msdir)
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    subprocess.run(["bash", SCRIPT, "install"], check=True, stdout=subprocess.DEVNULL)
    rows = []
    for r in range(args.runs):
        for binary in args.binaries:
            out = run(binary, args.count)
            rows.append((binary, out))
            print(f"{binary} run {r + 1}: {args.count} sends queued in {out['queued_s']:.2f}s, all delivered after "
                  f"{out['delivered_s']:.2f}s, all filed in Sent after {out['filed_s']:.2f}s = "
                  f"{args.count / out['filed_s']:.1f} mails/s, peak RSS {out['rss_mb']:.0f} MB", flush=True)
    if args.markdown:
        print(f"\n| binary | {args.count} API calls | all delivered | all filed in Sent | mails/s | peak RSS |")
        print("|---|---|---|---|---|---|")
        for binary, out in rows:
            print(f"| {binary} | {out['queued_s']:.2f} s | {out['delivered_s']:.2f} s | {out['filed_s']:.2f} s | "
                  f"{args.count / out['filed_s']:.1f} | {out['rss_mb']:.0f} MB |")


if __name__ == "__main__":
    main()
