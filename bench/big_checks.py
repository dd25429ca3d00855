"""What bench/big_bench.py measures beyond the first sync and the import (issue 42, a million
messages): the resync of an unchanged mailbox after a restart, the store migration with a kill -9
in the middle of it, and the free disk each big phase needs first.

resync      `serve` restarted on the synced data dir, the mail server still up and nothing
            changed on it. Timed from the spawn of the process to the first poll of
            GET /api/auth/accounts (every 20 ms) that shows this process's first pass over the
            mailbox finished: `initialSyncDone` (kept in memory only, so false until this
            process's first pass ends), state `idle` and `lastSync` no older than the spawn. That
            covers opening the store, the IMAP login, and checking every folder (CONDSTORE /
            QRESYNC: nothing to fetch). Also when it was first listening, and how many mails it
            fetched (0 when the resync found the mailbox unchanged).
migration   `migrate` (the index up to date first), then `migrate --rebuild-counters` timed (drops
            the store's counters and thread records and builds them again in committed steps):
            seconds, peak RSS (GNU time), and `serve` on the result: its folder counts, inbox total
            and first page of threads (compared with the synced store's, read by the resync's
            server: a difference is noted, not judged). Then the same command again, killed with
            SIGKILL half-way (at half the uninterrupted run's time), then plain `migrate` (the next
            start: it must finish the rebuild) timed, then `serve` again: the counts, the total and
            the first page must be exactly the uninterrupted rebuild's.
"""
import contextlib, imaplib, json, os, shutil, signal, socket, ssl, subprocess, sys, time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_bench  # noqa: E402
import sync_bench  # noqa: E402
from search_bench import BenchError  # noqa: E402

MIN_FREE_BYTES = 12e9  # others share /var/tmp: never leave less than this free


def free_bytes(path="/var/tmp"):
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def need_disk(need, what, path="/var/tmp"):
    """Stops the run (BenchError) when `what` would leave less than MIN_FREE_BYTES free."""
    free = free_bytes(path)
    if free - need < MIN_FREE_BYTES:
        raise BenchError(f"not enough disk for {what}: {free / 1e9:.1f} GB free, it needs about "
                         f"{need / 1e9:.1f} GB and {MIN_FREE_BYTES / 1e9:.0f} GB must stay free")
    print(f"  disk: {free / 1e9:.1f} GB free before {what} (needs about {need / 1e9:.1f} GB)", flush=True)


def raise_imap_memory(msdir, limit="2G"):
    """Dovecot's imap process may take `limit` of address space instead of its default 256 MB:
    at 1,000,000 messages mbsync's first FETCH of every UID and size made Dovecot die of "Out of
    memory (service imap { vsz_limit=256 MB })". The test server's config gets the block
    appended and is reloaded; both clients then sync against the same server."""
    conf = os.path.join(msdir, "dovecot", "dovecot.conf")
    with open(conf, "a") as f:
        f.write(f"\n# bench/big_bench.py: a 1,000,000-message INBOX\nservice imap {{\n  vsz_limit = {limit}\n}}\n")
    subprocess.run(["doveadm", "-c", conf, "reload"], check=True, capture_output=True)
    time.sleep(1)  # the master restarts its services


@contextlib.contextmanager
def imap_session(ms):
    """A fresh IMAPS session of the test user on the bench's mail server, signed in."""
    ctx = ssl.create_default_context(cafile=ms["MAILTEST_CA"])
    c = imaplib.IMAP4_SSL("127.0.0.1", int(ms["MAILTEST_IMAPS_PORT"]), ssl_context=ctx)
    try:
        c.login("user1@example.test", "pass1")
        yield c
    finally:
        with contextlib.suppress(Exception):  # a figure is taken; the session's end does not matter
            c.logout()


def server_first_answer(ms):
    """How long the mail server itself takes, on a fresh IMAPS session, to SELECT the INBOX
    and send its newest message (Dovecot reads its Maildir uidlist for both). Seconds, measured
    like a client."""
    with imap_session(ms) as c:
        t0 = time.monotonic()
        typ, _ = c.select("INBOX", readonly=True)
        uidnext = int(c.untagged_responses.get("UIDNEXT", [b"2"])[0])
        typ2, data = c.uid("FETCH", f"{uidnext - 1}", "(BODY.PEEK[])")
        took = time.monotonic() - t0
    if typ != "OK" or typ2 != "OK" or not data or data[0] is None:
        raise BenchError(f"the server's first answer failed: {typ} {typ2}")
    return took


def server_first_page(ms, count=50):
    """How long the mail server itself takes, on a fresh IMAPS session, for what any client's
    first page needs from it: SELECT the INBOX, then the sizes of the newest `count` mails and
    their bodies, one UID FETCH each (the sync sizes its first window, then fetches it): the part
    of "first page usable" no client can avoid. At 1,000,000 Maildir entries each FETCH of
    message files costs Dovecot seconds, far more than the one message of
    `server_first_answer`. Seconds, measured like a client."""
    with imap_session(ms) as c:
        t0 = time.monotonic()
        typ, _ = c.select("INBOX", readonly=True)
        uidnext = int(c.untagged_responses.get("UIDNEXT", [b"2"])[0])
        newest = f"{max(1, uidnext - count)}:{uidnext - 1}"
        typ2, _ = c.uid("FETCH", newest, "(UID RFC822.SIZE)")
        typ3, data = c.uid("FETCH", newest, "(BODY.PEEK[])")
        took = time.monotonic() - t0
    if typ != "OK" or typ2 != "OK" or typ3 != "OK" or not data or data[0] is None:
        raise BenchError(f"the server's first page failed: {typ} {typ2} {typ3}")
    return took


def start_serve(binary, work, log_name):
    """`serve` on the bench's synced data dir (work/mc-data, work/mc.toml), spawned now:
    (process, Api once signed in, monotonic spawn time, Unix spawn time, seconds until listening)."""
    port = sync_bench.free_ports(1)[0]
    log = open(os.path.join(work, log_name), "wb")
    t0, unix0 = time.monotonic(), time.time()
    proc = subprocess.Popen([binary, "--config", os.path.join(work, "mc.toml"), "--data-dir",
                             os.path.join(work, "mc-data"), "serve", "--listen", f"127.0.0.1:{port}"],
                            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "RUST_LOG": "warn"})
    log.close()
    try:
        while True:
            if proc.poll() is not None:
                raise BenchError(f"mailclient serve exited ({proc.returncode}); see {work}/{log_name}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() - t0 > 600:
                    raise BenchError("mailclient serve was not listening after 10 minutes")
                time.sleep(0.01)
        listening = time.monotonic() - t0
        api = sync_bench.Api(port)
        status, v, _ = api.call("POST", "/api/app/login", {"username": "bench", "password": "bench password 1"})
        if status != 200:
            raise BenchError(f"sign-in failed: {status} {v}")
        api.token = v["token"]
    except BaseException:
        sync_bench.stop_mailclient(proc)
        raise
    return proc, api, t0, unix0, listening


def snapshot(api):
    """What a rebuilt store must give back exactly: folder counts, the inbox's total, the
    inbox's first page of threads."""
    out = {}
    for name, path in (("counts", "/api/emails/counts"), ("threads", "/api/threads/inbox")):
        status, body, _ = api.call("GET", path)
        if status != 200:
            raise BenchError(f"GET {path}: {status} {body}")
        out[name] = body
    _, _, r = api.call("GET", "/api/emails/inbox?perPage=1")
    out["inbox_total"] = int(r.getheader("x-total-count"))
    return out


def resync(binary, work):
    """Restarts serve on the synced data dir and times its first pass (see the module doc); the
    snapshot the migration is checked against is read on this server before it stops."""
    proc, api, t0, unix0, listening = start_serve(binary, work, "mc-resync.log")
    try:
        polls = 0
        while True:
            _, v, _ = api.call("GET", "/api/auth/accounts")
            polls += 1
            sync = v["accounts"][0]["sync"] or {}
            if (sync.get("initialSyncDone") and sync.get("state") == "idle"
                    and (sync.get("lastSync") or 0) >= int(unix0)):
                took = time.monotonic() - t0
                break
            if sync.get("state") == "error":
                raise BenchError(f"the resync failed: {sync.get('error')}")
            if time.monotonic() - t0 > 600:
                raise BenchError(f"the resync had not finished after 10 minutes: {sync}")
            time.sleep(0.02)
        out = {"seconds": took, "listening_s": listening, "fetched_messages": sync.get("fetchedMessages"),
               "fetched_bytes": sync.get("fetchedBytes"), "polls": polls,
               "peak_rss_kb": sync_bench.peak_rss_kb(proc.pid)}
        out["snapshot"] = snapshot(api)
        return out
    finally:
        sync_bench.stop_mailclient(proc)


def migrate_cmd(binary, data, *extra):
    return [binary, "--data-dir", data, "migrate", *extra]


def measure_migration(binary, work, reference, keep):
    """The timed rebuild, then the killed one and the next start (see the module doc). Runs on
    work/mc-data itself (deleted afterwards anyway), on a copy when the run keeps its files."""
    with open(binary, "rb") as f:
        if b"rebuild-counters" not in f.read():
            return {"skipped": "this binary has no `migrate --rebuild-counters` (older than issue 23)"}
    synced = os.path.join(work, "mc-data")
    data = synced
    if keep:
        data = os.path.join(work, "migrate-data")
        shutil.copytree(synced, data)
    env = search_bench.clean_env(RUST_LOG="warn")
    # Bring the search index up to date first, so the timed run is the store's rebuild.
    p = subprocess.run(migrate_cmd(binary, data), env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise BenchError(f"mailclient migrate (before) failed: {p.stderr.strip()[-1000:]}")
    wall, rss, stdout = search_bench.timed_process(migrate_cmd(binary, data, "--rebuild-counters"), env,
                                                   "mailclient migrate")
    out = {"command": "mailclient migrate --rebuild-counters", "seconds": wall, "peak_rss_bytes": rss,
           "stdout": stdout}
    print(f"  migrate --rebuild-counters: {wall:.1f} s, peak RSS {rss / 1e6:.0f} MB", flush=True)
    try:
        out["killed"] = killed_migration(binary, data, work, wall, env, reference)
    except BenchError as e:
        out["killed"] = {"error": str(e)}
    if data != synced:
        shutil.rmtree(data, ignore_errors=True)
    return out


def serve_snapshot(binary, data, work, log_name):
    """snapshot() read on a `serve` of data (moved to work/mc-data for it when it is a copy)."""
    proc = None
    moved = data != os.path.join(work, "mc-data")
    if moved:  # start_serve reads work/mc-data: the copy takes its place for the check
        os.rename(os.path.join(work, "mc-data"), os.path.join(work, "mc-data.synced"))
        os.rename(data, os.path.join(work, "mc-data"))
    try:
        proc, api, _, _, _ = start_serve(binary, work, log_name)
        return snapshot(api)
    finally:
        if proc:
            sync_bench.stop_mailclient(proc)
        if moved:
            os.rename(os.path.join(work, "mc-data"), data)
            os.rename(os.path.join(work, "mc-data.synced"), os.path.join(work, "mc-data"))


def differs(a, b):
    return [k for k in a if json.dumps(a[k], sort_keys=True) != json.dumps(b[k], sort_keys=True)]


def killed_migration(binary, data, work, full_seconds, env, reference):
    # What the uninterrupted rebuild gave is what the killed one must give once finished.
    rebuilt = serve_snapshot(binary, data, work, "mc-rebuilt.log")
    changed = differs(reference, rebuilt) if reference else None
    if changed:
        print(f"  note: the rebuilt store answers differently from the synced one: {', '.join(changed)}", flush=True)
    os.sync()
    kill_at = full_seconds / 2
    t0 = time.monotonic()
    p = subprocess.Popen(migrate_cmd(binary, data, "--rebuild-counters"), env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(kill_at)
    if p.poll() is not None:
        raise BenchError(f"the migration ended (exit {p.returncode}) before the kill at {kill_at:.1f} s")
    os.kill(p.pid, signal.SIGKILL)
    p.communicate()
    killed_after = time.monotonic() - t0
    print(f"  migrate --rebuild-counters killed (SIGKILL) after {killed_after:.1f} s; migrate again ...", flush=True)
    wall, rss, stdout = search_bench.timed_process(migrate_cmd(binary, data), env, "mailclient migrate (after the kill)")
    after = serve_snapshot(binary, data, work, "mc-after-kill.log")
    diff = differs(rebuilt, after)
    whole = not diff
    verdict = ("counts, inbox total and first page of threads as after the uninterrupted rebuild" if whole
               else f"differs from the uninterrupted rebuild: {', '.join(diff)}")
    print(f"  after the kill: migrate {wall:.1f} s, {rss / 1e6:.0f} MB, said: {' / '.join(stdout.split(chr(10))[:3])}",
          flush=True)
    print(f"  {verdict}", flush=True)
    return {"killed_after_s": killed_after, "next_seconds": wall, "next_peak_rss_bytes": rss,
            "next_stdout": stdout, "whole": whole, "verdict": verdict,
            "rebuild_vs_synced": changed,
            "rebuild_vs_synced_detail": {k: {"synced": reference[k], "rebuilt": rebuilt[k]} for k in changed or []},
            "differs": {k: {"rebuilt": rebuilt[k], "after": after[k]} for k in diff}}
