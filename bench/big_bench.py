#!/usr/bin/env python3
"""Big mailboxes (issue 23): the 60,000 and 300,000 figures side by side, one command, against
mbsync, mu and notmuch.

For each size N (--sizes, default 60000,300000), one after the other, never two tools at once:

  corpus     the SpamAssassin corpus repeated to N (scripts/corpus.sh repeat), the Maildir that
             bench/search_bench.py caches in /var/tmp/mailclient-searchbench/maildir-N (built
             once per N, then reused by every run)
  seed       a fresh test Dovecot (scripts/mail-test-server.sh), its INBOX loaded from that
             Maildir's files (hard links: no copy; as unread mail, like bench/sync_bench.py)
  mbsync     pulls the INBOX over IMAPS into a Maildir: msg/s, peak RSS   (sync_bench.py)
  sync       `mailclient serve`, the same INBOX connected: msg/s, peak RSS (VmHWM), when the first
             page of 50 mails was there                                 (sync_bench.py)
  inbox      after the search index has caught up: GET /api/emails/inbox p50/p95, a tenth of the
             inbox triaged and 50 starred, then open inbox / switch folder / open a mail / counts /
             inbox zero p50/p95 (inbox_bench.py) and the byte size of the first page answer of
             GET /api/threads/inbox (50 threads)
  migration  at the largest size only: a copy of the synced data dir, then `mailclient migrate
             --rebuild-counters` (drops the store's counters and thread records and builds them
             again in steps, as schema 8 does for an older store) timed: seconds and peak RSS
             (GNU time)
  import     `mailclient import` of the Maildir vs `mu index` (and `notmuch new` at N <=
             --notmuch-max): msg/s, peak RSS                          (search_bench.py)
  search     the ten queries of search_bench.py over HTTP vs `notmuch search` (N <=
             --notmuch-max only: notmuch indexes 300,000 in ~13 min) and `mu find`

then prints a markdown table, one column per size, with PASS/FAIL against the issue's goals
(sizes up to 60,000 are judged by the 60,000 goals, larger ones by the 300,000 goals), and the
wall time of every phase. `--json FILE` writes every figure. Exits 0 whatever the verdicts;
non-zero only when something failed to run.

Usage: bench/big_bench.py [--sizes 60000,300000] [--notmuch-max 60000] [--binary PATH]
                          [--json FILE] [--keep]
Needs: bash scripts/install-bench-deps.sh (notmuch, mu, GNU time, the corpus) and the test mail
server's packages (bash scripts/mail-test-server.sh install: Dovecot, Postfix, isync/mbsync);
the release binary (cargo build --release). Runs as root, like the test mail server.
"""
import argparse, contextlib, imaplib, json, os, shutil, ssl, subprocess, sys, tempfile, time

sys.dont_write_bytecode = True  # no bench/__pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inbox_bench  # noqa: E402
import search_bench  # noqa: E402
import sync_bench  # noqa: E402
from search_bench import BenchError  # noqa: E402

# The goals. Sizes up to TIER are judged against the 60,000 column, larger ones against
# the 300,000 column. MB = 10^6 bytes, KB = 10^3 bytes.
TIER = 60000
GOALS = {
    "latency_p50_ms": 5.0,            # threads, emails, switch folder, counts, inbox zero
    "first_page_bytes": 60_000,       # GET /api/threads/inbox, 50 threads
    "sync_vs_mbsync": (4.0, 3.0),     # (60,000, 300,000)
    "first_page_s_300k": 0.5,
    "sync_rss_bytes": (150e6, 200e6),
    "import_vs_mu": 8.0,
    "import_rss_bytes_300k": 250e6,
    "search_vs_notmuch_60k": 10.0,
    "migration_rss_bytes": 200e6,
}
# The phases of one size, in the order they run.
PHASES = ["corpus", "mail server + seed", "mbsync", "mailclient sync", "search index catch-up", "inbox",
          "migration", "mailclient import", "notmuch new", "mu index", "mailclient search", "notmuch search",
          "mu find"]


def log(msg):
    print(msg, flush=True)


class Phases:
    """Wall time of each phase of one size, printed as it ends and kept in `times`."""

    def __init__(self, n, times, started):
        self.n, self.times, self.started = n, times, started

    @contextlib.contextmanager
    def __call__(self, name):
        log(f"[{self.n:,}] {name} ...")
        t0 = time.monotonic()
        try:
            yield
        finally:
            dt = time.monotonic() - t0
            self.times[name] = self.times.get(name, 0.0) + dt
            log(f"[{self.n:,}] {name}: {dt:.1f} s (run so far {time.monotonic() - self.started:.0f} s)")


def link_flat(maildir, dest):
    """A folder of NNNNNNN.eml hard links to the Maildir's files, in its order: what the test
    server's seed loads as unread mail (the Maildir's own names carry the Seen flag)."""
    os.makedirs(dest)
    names = sorted(os.listdir(os.path.join(maildir, "cur")))
    for i, name in enumerate(names):
        os.link(os.path.join(maildir, "cur", name), os.path.join(dest, f"{i:07d}.eml"))
    return len(names)


def server_first_answer(ms):
    """How long the mail server itself takes, on a fresh IMAPS session, to SELECT the INBOX
    and send its newest message: the part of "first page usable" no client can avoid (Dovecot
    reads its 300,000-line Maildir uidlist for both). Seconds, measured like a client."""
    ctx = ssl.create_default_context(cafile=ms["MAILTEST_CA"])
    c = imaplib.IMAP4_SSL("127.0.0.1", int(ms["MAILTEST_IMAPS_PORT"]), ssl_context=ctx)
    try:
        c.login("user1@example.test", "pass1")
        t0 = time.monotonic()
        typ, _ = c.select("INBOX", readonly=True)
        uidnext = int(c.untagged_responses.get("UIDNEXT", [b"2"])[0])
        typ2, data = c.uid("FETCH", f"{uidnext - 1}", "(BODY.PEEK[])")
        took = time.monotonic() - t0
        if typ != "OK" or typ2 != "OK" or not data or data[0] is None:
            raise BenchError(f"the server's first answer failed: {typ} {typ2}")
        return took
    finally:
        with contextlib.suppress(Exception):
            c.logout()


def threads_first_page(api):
    """GET /api/threads/inbox as the inbox opens it: (bytes of the answer, threads in it)."""
    status, body, _ = api.call("GET", "/api/threads/inbox")
    if status != 200:
        raise BenchError(f"GET /api/threads/inbox: {status} {body}")
    count = len(body) if isinstance(body, list) else len(body.get("threads") or body.get("items") or [])
    return api.last_bytes, count


def measure_migration(binary, synced, work):
    with open(binary, "rb") as f:
        if b"rebuild-counters" not in f.read():
            return {"skipped": "this binary has no `migrate --rebuild-counters` (older than issue 23)"}
    data = os.path.join(work, "migrate-data")
    shutil.copytree(synced, data)
    env = search_bench.clean_env(RUST_LOG="warn")
    # Bring the copy's search index up to date first, so the timed run is the store's rebuild.
    p = subprocess.run([binary, "--data-dir", data, "migrate"], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise BenchError(f"mailclient migrate (before) failed: {p.stderr.strip()[-1000:]}")
    cmd = [binary, "--data-dir", data, "migrate", "--rebuild-counters"]
    wall, rss, stdout = search_bench.timed_process(cmd, env, "mailclient migrate")
    shutil.rmtree(data, ignore_errors=True)
    return {"command": "mailclient migrate --rebuild-counters", "seconds": wall, "peak_rss_bytes": rss,
            "stdout": stdout}


def run_size(n, args, largest, started):
    fig = {"messages": n, "phases": {}}
    phase = Phases(n, fig["phases"], started)
    work = tempfile.mkdtemp(prefix=f"bigbench-{n}-", dir="/var/tmp")  # the corpus cache's file system
    os.chmod(work, 0o755)  # Dovecot (user mail) reads the seeded files below it
    fig["work"] = work
    ok = False
    try:
        with phase("corpus"):
            maildir, raw, _ = search_bench.build_maildir(n)
            flat = os.path.join(work, "flat")
            link_flat(maildir, flat)
        fig["raw_corpus_bytes"] = raw

        msdir, proc = None, None
        try:
            with phase("mail server + seed"):
                msdir, ms = sync_bench.start_mailserver(work)
                sync_bench.seed_mailserver(msdir, flat)
                shutil.rmtree(flat)
            with phase("mbsync"):
                mb = sync_bench.run_mbsync(ms, work)
                shutil.rmtree(os.path.join(work, "mbsync-mail"), ignore_errors=True)
            fig["mbsync"] = mb
            log(f"  mbsync: {mb['total']:,} msgs in {mb['seconds']:.1f} s = {mb['total'] / mb['seconds']:,.0f} msg/s, "
                f"peak RSS {mb['rss_mb']:.0f} MiB")
            fig["server_first_answer_s"] = server_first_answer(ms)
            log(f"  the server's first answer (fresh session: SELECT + newest message): "
                f"{fig['server_first_answer_s']:.2f} s")
            with phase("mailclient sync"):
                proc, api = sync_bench.start_mailclient(args.binary, ms, work)
                sync = sync_bench.initial_sync(api, proc, ms)
            fig["sync"] = sync
            log(f"  mailclient: {sync['total']:,} msgs in {sync['seconds']:.1f} s = "
                f"{sync['total'] / sync['seconds']:,.0f} msg/s, peak RSS {sync['rss_mb']:.0f} MiB, first page after "
                f"{sync['first_page_s'] or 0:.2f} s; ratio {rate(sync) / rate(mb):.2f}x mbsync")
            if sync["total"] != n or mb["total"] != n:
                log(f"  note: mailclient has {sync['total']:,} and mbsync {mb['total']:,} of {n:,} messages")
            with phase("search index catch-up"):
                sync["index_catch_up_s"] = search_bench.wait_indexed(api)
                # The peak of the whole first sync: the index catching up after it counts too.
                sync["rss_indexed_mb"] = sync_bench.peak_rss_kb(proc.pid) / 1024
            with phase("inbox"):
                sync.update(sync_bench.inbox_page_latency(api, args.rounds))
                inbox = {"triaged": inbox_bench.triage(api, n)}
                inbox.update(inbox_bench.measure(api, args.rounds))
                inbox["first_page_bytes"], inbox["first_page_threads"] = threads_first_page(api)
                inbox["serve_peak_rss_kb"] = sync_bench.peak_rss_kb(proc.pid)
            fig["inbox"] = inbox
            log(f"  {inbox['threads']:,} threads, {inbox['triaged']:,} triaged; first page of threads "
                f"{inbox['first_page_bytes']:,} bytes ({inbox['first_page_threads']} threads); emails page p50 "
                f"{sync['p50_ms']:.2f} ms; " + ", ".join(f"{k} p50 {v[0]:.2f} ms" for k, v in inbox["results"].items()))
        finally:
            if proc:
                sync_bench.stop_mailclient(proc)
            if msdir:
                sync_bench.stop_mailserver(msdir)

        synced = os.path.join(work, "mc-data")
        if largest:
            with phase("migration"):
                try:
                    fig["migration"] = measure_migration(args.binary, synced, work)
                except BenchError as e:  # the newest part: report it, keep the run's other figures
                    fig["migration"] = {"error": str(e)}
            m = fig["migration"]
            if "seconds" in m:
                log(f"  migrate: {m['seconds']:.1f} s, peak RSS {m['peak_rss_bytes'] / 1e6:.0f} MB"
                    + (f" ({m['note']})" if m.get("note") else ""))
            else:
                log(f"  migration not measured: {m.get('skipped') or m.get('error')}")
        shutil.rmtree(synced, ignore_errors=True)

        search_work = os.path.join(work, "search")
        os.makedirs(search_work)
        s = fig["search"] = {}
        with phase("mailclient import"):
            search_bench.warm_page_cache(maildir)
            s["mailclient_import"] = search_bench.run_mailclient_import(args.binary, maildir, n, search_work)
        if n <= args.notmuch_max:
            with phase("notmuch new"):
                s["notmuch_index"], nm_env = search_bench.notmuch_index(maildir, n, search_work)
            log(f"  notmuch new: {search_bench.fmt_import(s['notmuch_index'], n)}")
        else:
            log(f"[{n:,}] notmuch not run: {n:,} > --notmuch-max {args.notmuch_max:,} "
                f"(notmuch new takes ~13 min at 300,000)")
        with phase("mu index"):
            s["mu_index"], mu = search_bench.mu_index(maildir, n, search_work)
        log(f"  mu index: {search_bench.fmt_import(s['mu_index'], n)}")
        with phase("mailclient search"):
            s["mailclient_queries"], s["mailclient_serve"] = search_bench.run_mailclient_queries(
                args.binary, s["mailclient_import"], search_work, args.runs)
        if n <= args.notmuch_max:
            with phase("notmuch search"):
                s["notmuch_queries"] = search_bench.notmuch_queries(nm_env, args.cli_runs)
        with phase("mu find"):
            s["mu_queries"] = search_bench.mu_queries(mu, args.cli_runs)
        s["overall"] = search_bench.overall_figures(s)
        o = s["overall"]
        log(f"  search: HTTP median {fmt_ms(o['http_median_ms'])} ms, server p50 {fmt_ms(o['server_p50_ms'])} ms"
            f" p99 {fmt_ms(o['server_p99_ms'])} ms; notmuch search median {fmt_ms(o['notmuch_median_ms'])} ms; "
            f"mu find median {fmt_ms(o['mu_median_ms'])} ms")
        ok = True
    finally:
        if args.keep or not ok:
            log(f"[{n:,}] kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
            fig["work"] = None
    fig["phases"]["total"] = sum(fig["phases"].values())
    return fig


# ---------------------------------------------------------------------------------------------
# the table

def rate(r):
    return r["total"] / r["seconds"]


def fmt_ms(v):
    return f"{v:.2f}" if v is not None else "-"


def megabytes(b):
    return f"{b / 1e6:,.0f} MB" if b is not None else "-"


def cell(value, ok=None):
    """A table cell: the figure, then **PASS** / **FAIL** when a goal applies at this size."""
    if value is None:
        return "–"
    return value if ok is None else f"{value} **{'PASS' if ok else 'FAIL'}**"


def rows_for(figs, args):
    """(figure, goal, [cell per size]) for the table, and the verdicts for the JSON."""
    rows, verdicts = [], []

    def row(label, goal, per_size):
        cells = []
        for fig in figs:
            try:
                value, ok = per_size(fig, fig["messages"] <= TIER)
            except (KeyError, TypeError, ZeroDivisionError):
                value, ok = None, None
            cells.append(cell(value, ok))
            if ok is not None:
                verdicts.append({"messages": fig["messages"], "figure": label, "goal": goal, "value": value,
                                 "pass": ok})
        rows.append((label, goal, cells))

    def latency(name, path):
        def f(fig, small):
            p50, p95 = fig["inbox"]["results"][name] if name else (fig["sync"]["p50_ms"], fig["sync"]["p95_ms"])
            return f"{p50:.1f} / {p95:.1f} ms", p50 < GOALS["latency_p50_ms"]
        row(f"{path} p50 / p95", "p50 < 5 ms", f)

    g = GOALS
    row("initial sync: mailclient msg/s", "", lambda f, s: (f"{rate(f['sync']):,.0f}", None))
    row("initial sync: mbsync msg/s (peak RSS)", "",
        lambda f, s: (f"{rate(f['mbsync']):,.0f} ({f['mbsync']['rss_mb'] * 1.048576:.0f} MB)", None))
    row("sync ÷ mbsync", "≥ 4× at 60k, ≥ 3× at 300k",
        lambda f, s: (f"{rate(f['sync']) / rate(f['mbsync']):.2f}×",
                      rate(f["sync"]) / rate(f["mbsync"]) >= g["sync_vs_mbsync"][0 if s else 1]))
    row("sync peak RSS (VmHWM): when the sync is done / when the index has caught up",
        "< 150 MB at 60k, < 200 MB at 300k",
        lambda f, s: (f"{megabytes(f['sync']['rss_mb'] * 1048576)} / "
                      f"{megabytes(f['sync']['rss_indexed_mb'] * 1048576)}",
                      f["sync"]["rss_indexed_mb"] * 1048576 < g["sync_rss_bytes"][0 if s else 1]))
    row("first page usable after", "< 0.5 s at 300k",
        lambda f, s: (f"{f['sync']['first_page_s']:.2f} s",
                      None if s else f["sync"]["first_page_s"] < g["first_page_s_300k"]))
    row("the server's own first answer (fresh session: SELECT + newest message)", "",
        lambda f, s: (f"{f['server_first_answer_s']:.2f} s", None))
    row("first page usable after, less the server's first answer", "",
        lambda f, s: (f"{f['sync']['first_page_s'] - f['server_first_answer_s']:.2f} s", None))
    row("search index caught up after the sync", "", lambda f, s: (f"{f['sync']['index_catch_up_s']:.1f} s", None))
    latency("open inbox (50 threads)", "open inbox: `GET /api/threads/inbox`")
    latency(None, "inbox mails: `GET /api/emails/inbox`")
    latency("switch folder", "switch folder: `GET /api/threads/{Updates,Promotions,starred,sent}`")
    latency("folder counts", "`GET /api/emails/counts`")
    latency("inbox zero", "`GET /api/emails/inbox-zero`")
    row("open a mail: `GET /api/emails/{id}` p50 / p95", "",
        lambda f, s: ("{:.1f} / {:.1f} ms".format(*f["inbox"]["results"]["open a mail"]), None))
    row("first page answer, `GET /api/threads/inbox`", "< 60 KB",
        lambda f, s: (f"{f['inbox']['first_page_bytes'] / 1000:,.1f} KB ({f['inbox']['first_page_threads']} threads)",
                      f["inbox"]["first_page_bytes"] < g["first_page_bytes"]))
    row("threads in the inbox (triaged mails)", "",
        lambda f, s: (f"{f['inbox']['threads']:,} ({f['inbox']['triaged']:,})", None))

    imp = lambda f: f["search"]["mailclient_import"]
    mu = lambda f: f["search"]["mu_index"]
    row("`mailclient import` msg/s", "", lambda f, s: (f"{imp(f)['msgs_per_s']:,.0f}", None))
    row("`mu index` msg/s (peak RSS)", "",
        lambda f, s: (f"{mu(f)['msgs_per_s']:,.0f} ({megabytes(mu(f)['peak_rss_bytes'])})", None))
    row("import ÷ mu index", "≥ 8×",
        lambda f, s: (f"{imp(f)['msgs_per_s'] / mu(f)['msgs_per_s']:.2f}×",
                      imp(f)["msgs_per_s"] / mu(f)["msgs_per_s"] >= g["import_vs_mu"]))
    row("data dir after the import (raw corpus)", "",
        lambda f, s: (f"{megabytes(imp(f)['size_disk'])} ({megabytes(f['raw_corpus_bytes'])})", None))
    row("import peak RSS", "< 250 MB at 300k",
        lambda f, s: (megabytes(imp(f)["peak_rss_bytes"]),
                      None if s else imp(f)["peak_rss_bytes"] < g["import_rss_bytes_300k"]))

    def notmuch_cell(f, text):
        if "notmuch_index" not in f["search"]:
            return f"not run (> {args.notmuch_max:,})"
        return text(f)
    row("`notmuch new` msg/s", "",
        lambda f, s: (notmuch_cell(f, lambda f: f"{f['search']['notmuch_index']['msgs_per_s']:,.0f}"), None))
    o = lambda f: f["search"]["overall"]
    row("search: HTTP median (server p50 / p99)", "",
        lambda f, s: (f"{fmt_ms(o(f)['http_median_ms'])} ms ({fmt_ms(o(f)['server_p50_ms'])} / "
                      f"{fmt_ms(o(f)['server_p99_ms'])})", None))
    row("search: HTTP median ÷ the engine's p50", "≤ 2×",
        lambda f, s: (f"{o(f)['http_median_ms'] / o(f)['server_p50_ms']:.2f}×",
                      o(f)["http_median_ms"] <= 2 * o(f)["server_p50_ms"]))
    row("`notmuch search` median", "",
        lambda f, s: (notmuch_cell(f, lambda f: f"{fmt_ms(o(f)['notmuch_median_ms'])} ms"), None))
    row("`mu find` median", "", lambda f, s: (f"{fmt_ms(o(f)['mu_median_ms'])} ms", None))
    row("search: notmuch ÷ HTTP", "≥ 10× at 60k",
        lambda f, s: (notmuch_cell(f, lambda f: f"{o(f)['notmuch_over_http']:.1f}×"),
                      (o(f)["notmuch_over_http"] >= g["search_vs_notmuch_60k"]) if s and o(f)["notmuch_over_http"]
                      else None))

    def migration(f, s):
        m = f.get("migration")
        if m is None:
            return "(largest size only)", None
        if "seconds" not in m:
            return "not measured (see above)", None
        return (f"{m['seconds']:.1f} s, {megabytes(m['peak_rss_bytes'])}",
                m["peak_rss_bytes"] < g["migration_rss_bytes"])
    row("store migration (derived tables rebuilt): time, peak RSS", "< 200 MB", migration)
    row("wall time of this size", "300k < 15 min", lambda f, s: (fmt_duration(f["phases"]["total"]), None))
    return rows, verdicts


def fmt_duration(s):
    return f"{int(s // 60)} min {s % 60:02.0f} s" if s >= 60 else f"{s:.0f} s"


def print_table(figs, args):
    rows, verdicts = rows_for(figs, args)
    sizes = [f"{f['messages']:,}" for f in figs]
    log("\n| figure | goal | " + " | ".join(sizes) + " |")
    log("|---|---|" + "---|" * len(figs))
    for label, goal, cells in rows:
        log(f"| {label} | {goal} | " + " | ".join(cells) + " |")
    log(f"\nGoals of the 60,000 column judge sizes up to {TIER:,}, those of the 300,000 column larger sizes; "
        "MB = 10^6 bytes, KB = 10^3 bytes. Latencies: kept-alive HTTP on loopback, "
        f"{args.rounds} requests each.")
    skipped = [f"{f['messages']:,}" for f in figs if f["messages"] > args.notmuch_max]
    if skipped:
        log(f"notmuch (index and search) not run at {', '.join(skipped)}: above --notmuch-max "
            f"{args.notmuch_max:,} (notmuch new takes ~13 min at 300,000).")
    for f in figs:
        m = f.get("migration")
        if m and "seconds" not in m:
            log(f"store migration at {f['messages']:,}: not measured: {m.get('skipped') or m.get('error')}")
        elif m and m.get("note"):
            log(f"store migration at {f['messages']:,}: {m['note']}")

    names = [k for k in PHASES if any(k in f["phases"] for f in figs)]
    log("\n| phase (wall time) | " + " | ".join(sizes) + " |")
    log("|---|" + "---:|" * len(figs))
    for name in names + ["total"]:
        cells = [f"{f['phases'][name]:.1f} s" if name in f["phases"] else "–" for f in figs]
        log(f"| {name} | " + " | ".join(cells) + " |")
    passed = sum(1 for v in verdicts if v["pass"])
    log(f"\n{passed} of {len(verdicts)} goals met.")
    return verdicts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="60000,300000", help="mailbox sizes, comma separated (default 60000,300000)")
    ap.add_argument("--notmuch-max", type=int, default=60000,
                    help="run notmuch (index + search) only at sizes up to this (default 60000)")
    ap.add_argument("--binary", default=search_bench.default_binary(),
                    help="mailclient release binary (default: $CARGO_TARGET_DIR or target/, release/mailclient)")
    ap.add_argument("--rounds", type=int, default=200, help="requests per inbox latency (default 200)")
    ap.add_argument("--runs", type=int, default=50, help="timed requests per search query (default 50)")
    ap.add_argument("--cli-runs", type=int, default=10, help="timed runs per query of notmuch and mu (default 10)")
    ap.add_argument("--json", metavar="FILE", help="write every figure to FILE")
    ap.add_argument("--keep", action="store_true", help="keep each size's work dir (data dirs, indexes, logs)")
    args = ap.parse_args()
    try:
        sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    except ValueError:
        ap.error("--sizes: comma-separated numbers")
    if not sizes or min(sizes) < 100:
        ap.error("--sizes: at least one size, each at least 100 (the inbox page needs 50 rows)")
    started = time.monotonic()
    try:
        missing = [t for t in ["mbsync", "mu", "doveadm"] + (["notmuch"] if min(sizes) <= args.notmuch_max else [])
                   if not shutil.which(t)]
        if missing or not os.access(search_bench.GNU_TIME, os.X_OK):
            raise BenchError(f"missing: {' '.join(missing) or search_bench.GNU_TIME}: run "
                             "bash scripts/install-bench-deps.sh and bash scripts/mail-test-server.sh install")
        args.binary = search_bench.mailclient_binary(os.path.abspath(args.binary), False)
        subprocess.run(["bash", sync_bench.SCRIPT, "install"], check=True, stdout=subprocess.DEVNULL)
        log(f"binary {args.binary}; sizes {', '.join(f'{n:,}' for n in sizes)}; notmuch up to "
            f"{args.notmuch_max:,}; store migration (migrate --rebuild-counters) at {max(sizes):,}")
        out = {"date": time.strftime("%Y-%m-%d %H:%M"), "binary": args.binary, "sizes": sizes,
               "notmuch_max": args.notmuch_max, "versions": search_bench.versions(), "goals": GOALS,
               "tier": TIER, "results": []}
        for n in sizes:
            out["results"].append(run_size(n, args, n == max(sizes), started))
        out["verdicts"] = print_table(out["results"], args)
        out["seconds"] = time.monotonic() - started
        log(f"whole run: {fmt_duration(out['seconds'])}")
        if args.json:
            with open(args.json, "w") as f:
                json.dump(out, f, indent=1)
            log(f"figures written to {args.json}")
    except (BenchError, subprocess.CalledProcessError, AssertionError) as e:
        detail = e.stderr if isinstance(e, subprocess.CalledProcessError) and e.stderr else ""
        if isinstance(detail, bytes):
            detail = detail.decode(errors="replace")
        print(f"big_bench: {type(e).__name__}: {e} {detail[-2000:]}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
