#!/usr/bin/env python3
"""Big mailboxes (issues 23 and 42): the 60,000, 300,000 and 1,000,000 figures side by side, one
command, against mbsync, mu and notmuch.

For each size N (--sizes, default 60000,300000), one after the other, never two tools at once:

  corpus     the SpamAssassin corpus repeated to N (scripts/corpus.sh repeat), the Maildir that
             bench/search_bench.py caches in /var/tmp/mailclient-searchbench/maildir-N (built
             once per N, then reused by every run)
  seed       a fresh test Dovecot (scripts/mail-test-server.sh), its INBOX loaded from that
             Maildir's files (hard links: no copy; as unread mail, like bench/sync_bench.py)
  mbsync     pulls the INBOX over IMAPS into a Maildir: msg/s, peak RSS   (sync_bench.py)
  sync       `mailclient serve`, the same INBOX connected: msg/s, peak RSS (VmHWM), when the first
             page of 50 mails was there, less the server's own first answer (our own time)
  inbox      after the search index has caught up: GET /api/emails/inbox p50/p95, a tenth of the
             inbox triaged and 50 starred, then open inbox / switch folder / open a mail / counts /
             inbox zero p50/p95 (inbox_bench.py) and the byte size of the first page answer of
             GET /api/threads/inbox (50 threads)
  resync     `serve` restarted on the synced data dir, nothing changed on the server: seconds from
             the spawn until its first pass over the mailbox is done (big_checks.py says exactly)
  migration  at the largest size only, on the synced data dir: `mailclient migrate
             --rebuild-counters` (drops the store's counters and thread records and builds them
             again in steps, as schema 8 does for an older store) timed: seconds and peak RSS
             (GNU time); then the same killed with SIGKILL half-way, `migrate` again, and the
             answers of `serve` compared with the uninterrupted rebuild's (big_checks.py)
  import     `mailclient import` of the Maildir: msg/s, peak RSS, data dir size   (search_bench.py)
  search     the ten queries of search_bench.py over HTTP on the imported data dir: per query
             p50/p99 end to end, the engine's own time
  rivals     `notmuch new` + `notmuch search` (N <= --notmuch-max only: notmuch indexes 300,000 in
             ~13 min), then `mu index` + `mu find` (the longest phase at 1,000,000: it runs last, so
             a run stopped early still has every figure of ours)

then prints a markdown table, one column per size, with PASS/FAIL against the issues' goals
(big_table.py: sizes up to 60,000 are judged by the 60,000 goals, up to 300,000 by the 300,000
goals, larger ones by the 1,000,000 goals), and the wall time of every phase. Before each big
phase the free disk of /var/tmp is checked: a phase that would leave less than 12 GB free stops
the run; every big artefact is deleted as soon as its phase is measured. `--json FILE` writes
every figure (after every phase too). A size that fails still prints the table of the phases
that ran. Exits 0 when every size ran, whatever the verdicts; non-zero when something failed to
run.

Usage: bench/big_bench.py [--sizes 60000,300000] [--notmuch-max 60000] [--binary PATH]
                          [--json FILE] [--keep] [--mailbox-only]
       bench/big_bench.py --sizes 1000000     (issue 42: ~7 GB corpus, about an hour)
       bench/big_bench.py --sizes 1000000 --mailbox-only [--with-mbsync]   (corpus, seed, sync, inbox, resync:
                          mbsync, the migration, import, search and the rivals left out)
Needs: bash scripts/install-bench-deps.sh (notmuch, mu, GNU time, the corpus) and the test mail
server's packages (bash scripts/mail-test-server.sh install: Dovecot, Postfix, isync/mbsync);
the release binary (cargo build --release). Runs as root, like the test mail server.
"""
import argparse, contextlib, json, os, shutil, subprocess, sys, tempfile, time

sys.dont_write_bytecode = True  # no bench/__pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import big_checks  # noqa: E402
import inbox_bench  # noqa: E402
import search_bench  # noqa: E402
import sync_bench  # noqa: E402
from big_table import GOALS, TIERS, fmt_duration, fmt_ms, log, print_table, rate  # noqa: E402
from search_bench import BenchError  # noqa: E402

class Phases:
    """Wall time of each phase of one size, printed as it ends and kept in `times`."""

    def __init__(self, n, times, started, checkpoint):
        self.n, self.times, self.started, self.checkpoint = n, times, started, checkpoint

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
            self.checkpoint()


def link_flat(maildir, dest):
    """A folder of NNNNNNN.eml hard links to the Maildir's files, in its order: what the test
    server's seed loads as unread mail (the Maildir's own names carry the Seen flag)."""
    os.makedirs(dest)
    names = sorted(os.listdir(os.path.join(maildir, "cur")))
    for i, name in enumerate(names):
        os.link(os.path.join(maildir, "cur", name), os.path.join(dest, f"{i:07d}.eml"))
    return len(names)


def threads_first_page(api):
    """GET /api/threads/inbox as the inbox opens it: (bytes of the answer, threads in it)."""
    status, body, _ = api.call("GET", "/api/threads/inbox")
    if status != 200:
        raise BenchError(f"GET /api/threads/inbox: {status} {body}")
    count = len(body) if isinstance(body, list) else len(body.get("threads") or body.get("items") or [])
    return api.last_bytes, count


def run_size(fig, args, largest, started):
    """Every phase of one size (see the module doc), its figures written into fig."""
    n = fig["messages"]
    phase = Phases(n, fig["phases"], started, args.checkpoint)
    work = tempfile.mkdtemp(prefix=f"bigbench-{n}-", dir="/var/tmp")  # the corpus cache's file system
    os.chmod(work, 0o755)  # Dovecot (user mail) reads the seeded files below it
    fig["work"] = work
    ok = False
    try:
        with phase("corpus"):
            if not os.path.exists(os.path.join(search_bench.CACHE, f"maildir-{n}.complete")):
                big_checks.need_disk(n * 7500, "the corpus")  # ~7 KB a message
            maildir, raw, _ = search_bench.build_maildir(n)
            flat = os.path.join(work, "flat")
            link_flat(maildir, flat)
        fig["raw_corpus_bytes"] = raw

        msdir, proc = None, None
        try:
            with phase("mail server + seed"):
                msdir, ms = sync_bench.start_mailserver(work)
                big_checks.raise_imap_memory(msdir)
                sync_bench.seed_mailserver(msdir, flat)
                shutil.rmtree(flat)
            mb = None
            if not args.mailbox_only or args.with_mbsync:
                with phase("mbsync"):
                    big_checks.need_disk(raw * 1.1, "mbsync's Maildir")
                    mb = sync_bench.run_mbsync(ms, work)
                    shutil.rmtree(os.path.join(work, "mbsync-mail"), ignore_errors=True)
                fig["mbsync"] = mb
                log(f"  mbsync: {mb['total']:,} msgs in {mb['seconds']:.1f} s = "
                    f"{mb['total'] / mb['seconds']:,.0f} msg/s, peak RSS {mb['rss_mb']:.0f} MiB")
            fig["server_first_answer_s"] = big_checks.server_first_answer(ms)
            fig["server_first_page_s"] = big_checks.server_first_page(ms)
            log(f"  the server's first answer (fresh session: SELECT + newest message): "
                f"{fig['server_first_answer_s']:.2f} s; its first page (SELECT, sizes and bodies of the newest 50): "
                f"{fig['server_first_page_s']:.2f} s")
            with phase("mailclient sync"):
                big_checks.need_disk(raw * 0.9, "the synced data dir")
                proc, api = sync_bench.start_mailclient(args.binary, ms, work)
                sync = sync_bench.initial_sync(api, proc, ms)
            fig["sync"] = sync
            ratio = f"; ratio {rate(sync) / rate(mb):.2f}x mbsync" if mb else ""
            log(f"  mailclient: {sync['total']:,} msgs in {sync['seconds']:.1f} s = "
                f"{sync['total'] / sync['seconds']:,.0f} msg/s, peak RSS {sync['rss_mb']:.0f} MiB, first page after "
                f"{sync['first_page_s'] or 0:.2f} s{ratio}")
            if sync["total"] != n or (mb and mb["total"] != n):
                theirs = f" and mbsync {mb['total']:,}" if mb else ""
                fig["notes"].append(f"mailclient has {sync['total']:,}{theirs} of {n:,} messages")
                log(f"  note: {fig['notes'][-1]}")
            with phase("search index catch-up"):
                sync["index_catch_up_s"] = search_bench.wait_indexed(api)
                # The peak of the whole first sync: the index catching up after it counts too.
                sync["rss_indexed_mb"] = sync_bench.peak_rss_kb(proc.pid) / 1024
            with phase("inbox"):
                sync.update(sync_bench.inbox_page_latency(api, args.rounds))
                # A tenth of the inbox, at most --triage-max: each status is a keyword STORE that
                # Dovecot's Maildir pays with a rename and a re-read of the whole directory (about
                # 80 a second at 1,000,000 entries: the 100,000 of a tenth would take ~20 minutes).
                inbox = {"triaged": inbox_bench.triage(api, min(n, 10 * args.triage_max))}
                inbox.update(inbox_bench.measure(api, args.rounds))
                inbox["first_page_bytes"], inbox["first_page_threads"] = threads_first_page(api)
                inbox["serve_peak_rss_kb"] = sync_bench.peak_rss_kb(proc.pid)
                inbox_bench.wait_idle(api)  # the triage's flags pushed: the resync finds nothing to do
            fig["inbox"] = inbox
            log(f"  {inbox['threads']:,} threads, {inbox['triaged']:,} triaged; first page of threads "
                f"{inbox['first_page_bytes']:,} bytes ({inbox['first_page_threads']} threads); emails page p50 "
                f"{sync['p50_ms']:.2f} ms; " + ", ".join(f"{k} p50 {v[0]:.2f} ms" for k, v in inbox["results"].items()))
            sync_bench.stop_mailclient(proc)
            proc = None
            with phase("resync"):
                fig["server_first_answer_resync_s"] = big_checks.server_first_answer(ms)
                try:
                    fig["resync"] = big_checks.resync(args.binary, work)
                except BenchError as e:  # a figure of its own: keep the run's others
                    fig["resync"] = {"error": str(e)}
            r = fig["resync"]
            if "seconds" in r:
                log(f"  resync: first pass done {r['seconds']:.2f} s after the restart (listening after "
                    f"{r['listening_s']:.2f} s), {r['fetched_messages']:,} mails fetched; the server's own first "
                    f"answer just before {fig['server_first_answer_resync_s']:.2f} s")
            else:
                log(f"  resync not measured: {r['error']}")
        finally:
            if proc:
                sync_bench.stop_mailclient(proc)
            if msdir:
                sync_bench.stop_mailserver(msdir)

        synced = os.path.join(work, "mc-data")
        if args.mailbox_only:
            shutil.rmtree(synced, ignore_errors=True)
            ok = True
            fig["phases"]["total"] = sum(fig["phases"].values())
            return  # the work dir goes in the finally below
        if largest:
            with phase("migration"):
                try:
                    if args.keep:
                        big_checks.need_disk(search_bench.dir_size(synced)[0], "the migration's copy")
                    fig["migration"] = big_checks.measure_migration(
                        args.binary, work, fig["resync"].get("snapshot"), args.keep)
                except BenchError as e:  # the newest part: report it, keep the run's other figures
                    fig["migration"] = {"error": str(e)}
            m = fig["migration"]
            if "seconds" not in m:
                log(f"  migration not measured: {m.get('skipped') or m.get('error')}")
        if not args.keep:
            shutil.rmtree(synced, ignore_errors=True)

        search_work = os.path.join(work, "search")
        os.makedirs(search_work)
        s = fig["search"] = {}
        # mailclient first (import, then its queries, then its data dir is gone), then the rivals,
        # one tool at a time: at 1,000,000 `mu index` is the longest phase of all.
        with phase("mailclient import"):
            big_checks.need_disk(raw * 0.9, "the import's data dir")
            search_bench.warm_page_cache(maildir)
            s["mailclient_import"] = search_bench.run_mailclient_import(args.binary, maildir, n, search_work)
        with phase("mailclient search"):
            s["mailclient_queries"], s["mailclient_serve"] = search_bench.run_mailclient_queries(
                args.binary, s["mailclient_import"], search_work, args.runs)
        if not args.keep:
            shutil.rmtree(s["mailclient_import"]["data_dir"], ignore_errors=True)
        if n <= args.notmuch_max:
            with phase("notmuch new"):
                big_checks.need_disk(raw, "notmuch's database")
                s["notmuch_index"], nm_env = search_bench.notmuch_index(maildir, n, search_work)
            log(f"  notmuch new: {search_bench.fmt_import(s['notmuch_index'], n)}")
            with phase("notmuch search"):
                s["notmuch_queries"] = search_bench.notmuch_queries(nm_env, args.cli_runs)
            if not args.keep:
                shutil.rmtree(os.path.join(search_work, "notmuch"), ignore_errors=True)
        else:
            log(f"[{n:,}] notmuch not run: {n:,} > --notmuch-max {args.notmuch_max:,} "
                f"(notmuch new takes ~13 min at 300,000)")
        with phase("mu index"):
            big_checks.need_disk(raw, "mu's database")
            s["mu_index"], mu = search_bench.mu_index(maildir, n, search_work)
        log(f"  mu index: {search_bench.fmt_import(s['mu_index'], n)}")
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


def error_detail(e):
    detail = e.stderr if isinstance(e, subprocess.CalledProcessError) and e.stderr else ""
    if isinstance(detail, bytes):
        detail = detail.decode(errors="replace")
    return detail[-2000:]


def write_json(path, out):
    """Every figure so far (after each phase too: a run stopped half-way keeps what it measured)."""
    if path:
        with open(path + ".tmp", "w") as f:
            json.dump(out, f, indent=1)
        os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="60000,300000", help="mailbox sizes, comma separated (default 60000,300000)")
    ap.add_argument("--notmuch-max", type=int, default=60000,
                    help="run notmuch (index + search) only at sizes up to this (default 60000)")
    ap.add_argument("--binary", default=search_bench.default_binary(),
                    help="mailclient release binary (default: $CARGO_TARGET_DIR or target/, release/mailclient)")
    ap.add_argument("--rounds", type=int, default=200, help="requests per inbox latency (default 200)")
    ap.add_argument("--runs", type=int, default=100,
                    help="timed requests per search query (default 100: a p99 is judged at 1,000,000)")
    ap.add_argument("--cli-runs", type=int, default=10, help="timed runs per query of notmuch and mu (default 10)")
    ap.add_argument("--triage-max", type=int, default=30000,
                    help="mails triaged before the inbox latencies, at most (in pages of 500; default 30000: a tenth of 300,000)")
    ap.add_argument("--json", metavar="FILE", help="write every figure to FILE")
    ap.add_argument("--keep", action="store_true", help="keep each size's work dir (data dirs, indexes, logs)")
    ap.add_argument("--mailbox-only", action="store_true",
                    help="only the mailbox phases: corpus, seed, sync, inbox, resync (no mbsync, migration, "
                         "import, search or rivals)")
    ap.add_argument("--with-mbsync", action="store_true",
                    help="with --mailbox-only: mbsync too, so the sync's ratio to it is of the same run")
    args = ap.parse_args()
    try:
        sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    except ValueError:
        ap.error("--sizes: comma-separated numbers")
    if not sizes or min(sizes) < 100:
        ap.error("--sizes: at least one size, each at least 100 (the inbox page needs 50 rows)")
    started = time.monotonic()
    try:
        if args.mailbox_only:
            wanted = ["doveadm"] + (["mbsync"] if args.with_mbsync else [])
        else:
            wanted = ["mbsync", "mu", "doveadm"] + (["notmuch"] if min(sizes) <= args.notmuch_max else [])
        missing = [t for t in wanted if not shutil.which(t)]
        if missing or not os.access(search_bench.GNU_TIME, os.X_OK):
            raise BenchError(f"missing: {' '.join(missing) or search_bench.GNU_TIME}: run "
                             "bash scripts/install-bench-deps.sh and bash scripts/mail-test-server.sh install")
        args.binary = search_bench.mailclient_binary(os.path.abspath(args.binary), False)
        subprocess.run(["bash", sync_bench.SCRIPT, "install"], check=True, stdout=subprocess.DEVNULL)
        log(f"binary {args.binary}; sizes {', '.join(f'{n:,}' for n in sizes)}; notmuch up to "
            f"{args.notmuch_max:,}; store migration (migrate --rebuild-counters) at {max(sizes):,}")
        out = {"date": time.strftime("%Y-%m-%d %H:%M"), "binary": args.binary, "sizes": sizes,
               "notmuch_max": args.notmuch_max, "versions": search_bench.versions(), "goals": GOALS,
               "tiers": TIERS, "results": []}
        args.checkpoint = lambda: write_json(args.json, out)
        failed = None
        for n in sizes:
            fig = {"messages": n, "phases": {}, "notes": []}
            out["results"].append(fig)
            try:
                run_size(fig, args, n == max(sizes), started)
            except (Exception, SystemExit) as e:  # noqa: BLE001 (the phases that ran still count)
                # The phases that ran still make a table (the failed one's cells stay empty).
                failed = fig["error"] = f"{type(e).__name__}: {e} {error_detail(e)}"
                fig["phases"]["total"] = sum(fig["phases"].values())
                break
        out["verdicts"] = print_table(out["results"], args)
        out["seconds"] = time.monotonic() - started
        log(f"whole run: {fmt_duration(out['seconds'])}")
        if args.json:
            write_json(args.json, out)
            log(f"figures written to {args.json}")
        if failed:
            raise BenchError(f"the run stopped at {fig['messages']:,}: {failed}")
    except (BenchError, subprocess.CalledProcessError, AssertionError) as e:
        print(f"big_bench: {type(e).__name__}: {e} {error_detail(e)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
