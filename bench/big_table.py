"""The table of bench/big_bench.py: the issues' goals per size tier, one column per size with
PASS/FAIL, and the wall time of every phase.

Three tiers: sizes up to 60,000 are judged by issue 23's 60,000 goals, sizes up to 300,000 by
its 300,000 goals (and issue 42's own share of the first page), larger sizes by issue 42's
1,000,000 goals. MB = 10^6 bytes, KB = 10^3 bytes."""
import os, sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search_common import percentile  # noqa: E402

TIERS = (60000, 300000)  # a size's tier: 0 up to 60,000, 1 up to 300,000, 2 above
TIER_NAMES = ("60k", "300k", "1M")
GOALS = {
    "latency_p50_ms": 5.0,                    # threads, emails, switch folder, counts, inbox zero
    "first_page_bytes": 60_000,               # GET /api/threads/inbox, 50 threads
    "sync_vs_mbsync": (4.0, 3.0, 3.0),
    "sync_rss_bytes": (150e6, 200e6, 250e6),  # when the index has caught up after the sync
    "first_page_own_s": (None, 0.3, 1.0),     # first page less the server's own first answer
    "resync_s": (None, None, 2.0),            # serve restarted on the synced data dir
    "import_vs_mu": 8.0,
    "import_msgs_per_s": (None, None, 10_000),
    "import_rss_bytes": (None, 250e6, 250e6),
    "search_vs_notmuch": (10.0, None, None),
    "search_query_p99_ms": (None, None, 10.0),  # every query, end to end (HTTP)
    "store_over_corpus": (None, None, 0.75),    # data dir after the import / raw corpus
    "migration_rss_bytes": 200e6,
}
# The phases of one size, in the order they run.
PHASES = ["corpus", "mail server + seed", "mbsync", "mailclient sync", "search index catch-up", "inbox",
          "resync", "migration", "mailclient import", "mailclient search", "notmuch new", "notmuch search",
          "mu index", "mu find"]


def tier(n):
    return sum(1 for t in TIERS if n > t)


def log(msg):
    print(msg, flush=True)


def rate(r):
    return r["total"] / r["seconds"]


def fmt_ms(v):
    return f"{v:.2f}" if v is not None else "-"


def megabytes(b):
    return f"{b / 1e6:,.0f} MB" if b is not None else "-"


def fmt_duration(s):
    return f"{int(s // 60)} min {s % 60:02.0f} s" if s >= 60 else f"{s:.0f} s"


def cell(value, ok=None):
    """A table cell: the figure, then **PASS** / **FAIL** when a goal applies at this size."""
    if value is None:
        return "–"
    return value if ok is None else f"{value} **{'PASS' if ok else 'FAIL'}**"


def goal_text(key, fmt):
    """'< x at 300k, < y at 1M' for a per-tier goal (tiers without one left out)."""
    return ", ".join(f"{fmt(v)} at {name}" for v, name in zip(GOALS[key], TIER_NAMES) if v is not None)


def query_p99(f):
    """(worst query's name, its HTTP p99 ms) over the bench's search queries."""
    q = f["search"]["mailclient_queries"]
    worst = max(((name, percentile(d["http_ms"], 0.99)) for name, d in q.items() if d.get("http_ms")),
                key=lambda x: x[1])
    return worst


def store_ratio(f):
    imp = f["search"]["mailclient_import"]
    return max(imp["size_disk"], imp.get("size_disk_after_serve", 0)) / f["raw_corpus_bytes"]


def rows_for(figs, args):
    """(figure, goal, [cell per size]) for the table, and the verdicts for the JSON."""
    rows, verdicts = [], []

    def row(label, goal, per_size):
        cells = []
        for fig in figs:
            try:
                value, ok = per_size(fig, tier(fig["messages"]))
            except (KeyError, TypeError, ZeroDivisionError, ValueError):
                value, ok = None, None
            cells.append(cell(value, ok))
            if ok is not None:
                verdicts.append({"messages": fig["messages"], "figure": label, "goal": goal, "value": value,
                                 "pass": ok})
        rows.append((label, goal, cells))

    def at(key, t):
        return GOALS[key][t]

    def judged(key, t, test):
        """None where the tier has no goal for key, else test(goal)."""
        goal = at(key, t)
        return None if goal is None else test(goal)

    def latency(name, path):
        def f(fig, t):
            p50, p95 = fig["inbox"]["results"][name] if name else (fig["sync"]["p50_ms"], fig["sync"]["p95_ms"])
            return f"{p50:.1f} / {p95:.1f} ms", p50 < GOALS["latency_p50_ms"]
        row(f"{path} p50 / p95", "p50 < 5 ms", f)

    g = GOALS
    # Our own time: the first page less the server's own time for a first page (the sizes and
    # bodies of the newest 50; runs before it measured only the newest message).
    own = lambda f: f["sync"]["first_page_s"] - f.get("server_first_page_s", f["server_first_answer_s"])
    row("initial sync: mailclient msg/s", "", lambda f, t: (f"{rate(f['sync']):,.0f}", None))
    row("initial sync: mbsync msg/s (peak RSS)", "",
        lambda f, t: (f"{rate(f['mbsync']):,.0f} ({f['mbsync']['rss_mb'] * 1.048576:.0f} MB)", None))
    row("sync ÷ mbsync", goal_text("sync_vs_mbsync", lambda v: f"≥ {v:g}×"),
        lambda f, t: (f"{rate(f['sync']) / rate(f['mbsync']):.2f}×",
                      rate(f["sync"]) / rate(f["mbsync"]) >= at("sync_vs_mbsync", t)))
    row("sync peak RSS (VmHWM): when the sync is done / when the index has caught up",
        goal_text("sync_rss_bytes", lambda v: f"< {v / 1e6:.0f} MB"),
        lambda f, t: (f"{megabytes(f['sync']['rss_mb'] * 1048576)} / "
                      f"{megabytes(f['sync']['rss_indexed_mb'] * 1048576)}",
                      f["sync"]["rss_indexed_mb"] * 1048576 < at("sync_rss_bytes", t)))
    row("first page usable after", "", lambda f, t: (f"{f['sync']['first_page_s']:.2f} s", None))
    row("the server's own first answer (fresh session: SELECT + newest message)", "",
        lambda f, t: (f"{f['server_first_answer_s']:.2f} s", None))
    row("the server's own first page (fresh session: SELECT, then sizes and bodies of the newest 50)", "",
        lambda f, t: (f"{f['server_first_page_s']:.2f} s", None))
    row("first page usable after, less the server's own first page (our own time)",
        goal_text("first_page_own_s", lambda v: f"< {v:g} s"),
        lambda f, t: (f"{own(f):.2f} s", judged("first_page_own_s", t, lambda v: own(f) < v)))
    row("search index caught up after the sync", "", lambda f, t: (f"{f['sync']['index_catch_up_s']:.1f} s", None))
    rs = lambda f: f["resync"]
    row("resync of the unchanged mailbox: `serve` restarted → its first pass done (listening after; "
        "mails fetched)", goal_text("resync_s", lambda v: f"< {v:g} s"),
        lambda f, t: (f"{rs(f)['seconds']:.2f} s ({rs(f)['listening_s']:.2f} s; {rs(f)['fetched_messages']:,})",
                      judged("resync_s", t, lambda v: rs(f)["seconds"] < v)))
    latency("open inbox (50 threads)", "open inbox: `GET /api/threads/inbox`")
    latency(None, "inbox mails: `GET /api/emails/inbox`")
    latency("switch folder", "switch folder: `GET /api/threads/{Updates,Promotions,starred,sent}`")
    latency("folder counts", "`GET /api/emails/counts`")
    latency("inbox zero", "`GET /api/emails/inbox-zero`")
    row("open a mail: `GET /api/emails/{id}` p50 / p95", "",
        lambda f, t: ("{:.1f} / {:.1f} ms".format(*f["inbox"]["results"]["open a mail"]), None))
    row("first page answer, `GET /api/threads/inbox`", "< 60 KB",
        lambda f, t: (f"{f['inbox']['first_page_bytes'] / 1000:,.1f} KB ({f['inbox']['first_page_threads']} threads)",
                      f["inbox"]["first_page_bytes"] < g["first_page_bytes"]))
    row("threads in the inbox (triaged mails)", "",
        lambda f, t: (f"{f['inbox']['threads']:,} ({f['inbox']['triaged']:,})", None))

    imp = lambda f: f["search"]["mailclient_import"]
    mu = lambda f: f["search"]["mu_index"]
    row("`mailclient import` msg/s", goal_text("import_msgs_per_s", lambda v: f"≥ {v:,}"),
        lambda f, t: (f"{imp(f)['msgs_per_s']:,.0f}",
                      judged("import_msgs_per_s", t, lambda v: imp(f)["msgs_per_s"] >= v)))
    row("`mu index` msg/s (peak RSS)", "",
        lambda f, t: (f"{mu(f)['msgs_per_s']:,.0f} ({megabytes(mu(f)['peak_rss_bytes'])})", None))
    row("import ÷ mu index", "≥ 8×",
        lambda f, t: (f"{imp(f)['msgs_per_s'] / mu(f)['msgs_per_s']:.2f}×",
                      imp(f)["msgs_per_s"] / mu(f)["msgs_per_s"] >= g["import_vs_mu"]))
    row("data dir after the import, index caught up (raw corpus)",
        goal_text("store_over_corpus", lambda v: f"≤ {v:g}× the corpus"),
        lambda f, t: (f"{megabytes(max(imp(f)['size_disk'], imp(f).get('size_disk_after_serve', 0)))} "
                      f"({megabytes(f['raw_corpus_bytes'])}) = {store_ratio(f):.2f}×",
                      judged("store_over_corpus", t, lambda v: store_ratio(f) <= v)))
    row("import peak RSS", goal_text("import_rss_bytes", lambda v: f"< {v / 1e6:.0f} MB"),
        lambda f, t: (megabytes(imp(f)["peak_rss_bytes"]),
                      judged("import_rss_bytes", t, lambda v: imp(f)["peak_rss_bytes"] < v)))

    def notmuch_cell(f, text):
        if "notmuch_index" not in f["search"]:
            return f"not run (> {args.notmuch_max:,})"
        return text(f)
    row("`notmuch new` msg/s", "",
        lambda f, t: (notmuch_cell(f, lambda f: f"{f['search']['notmuch_index']['msgs_per_s']:,.0f}"), None))
    o = lambda f: f["search"]["overall"]
    row("search: HTTP median (server p50 / p99)", "",
        lambda f, t: (f"{fmt_ms(o(f)['http_median_ms'])} ms ({fmt_ms(o(f)['server_p50_ms'])} / "
                      f"{fmt_ms(o(f)['server_p99_ms'])})", None))
    row("search: the slowest query's HTTP p99 (which)", goal_text("search_query_p99_ms", lambda v: f"< {v:g} ms"),
        lambda f, t: (f"{query_p99(f)[1]:.2f} ms ({query_p99(f)[0]})",
                      judged("search_query_p99_ms", t, lambda v: query_p99(f)[1] < v)))
    row("search: HTTP median ÷ the engine's p50", "≤ 2×",
        lambda f, t: (f"{o(f)['http_median_ms'] / o(f)['server_p50_ms']:.2f}×",
                      o(f)["http_median_ms"] <= 2 * o(f)["server_p50_ms"]))
    row("`notmuch search` median", "",
        lambda f, t: (notmuch_cell(f, lambda f: f"{fmt_ms(o(f)['notmuch_median_ms'])} ms"), None))
    row("`mu find` median", "", lambda f, t: (f"{fmt_ms(o(f)['mu_median_ms'])} ms", None))
    row("search: notmuch ÷ HTTP", "≥ 10× at 60k",
        lambda f, t: (notmuch_cell(f, lambda f: f"{o(f)['notmuch_over_http']:.1f}×"),
                      judged("search_vs_notmuch", t, lambda v: o(f)["notmuch_over_http"] >= v)
                      if o(f)["notmuch_over_http"] else None))

    def migration(f, t):
        m = f.get("migration")
        if m is None:
            return "(largest size only)", None
        if "seconds" not in m:
            return "not measured (see above)", None
        return (f"{m['seconds']:.1f} s, {megabytes(m['peak_rss_bytes'])}",
                m["peak_rss_bytes"] < g["migration_rss_bytes"])
    row("store migration (derived tables rebuilt): time, peak RSS", "< 200 MB", migration)

    def killed(f, t):
        k = (f.get("migration") or {}).get("killed")
        if k is None:
            return None, None
        if "error" in k:
            return f"not measured: {k['error']}", None
        return (f"killed after {k['killed_after_s']:.1f} s; next `migrate` {k['next_seconds']:.1f} s, "
                f"{megabytes(k['next_peak_rss_bytes'])}; {k['verdict']}", k["whole"])
    row("kill -9 during the migration, then `migrate` again: finished, the mail whole",
        "finished by the next start", killed)
    row("wall time of this size", "", lambda f, t: (fmt_duration(f["phases"]["total"]), None))
    return rows, verdicts


def print_table(figs, args):
    rows, verdicts = rows_for(figs, args)
    sizes = [f"{f['messages']:,}" for f in figs]
    log("\n| figure | goal | " + " | ".join(sizes) + " |")
    log("|---|---|" + "---|" * len(figs))
    for label, goal, cells in rows:
        log(f"| {label} | {goal} | " + " | ".join(cells) + " |")
    log(f"\nGoals: sizes up to {TIERS[0]:,} are judged by the 60k goals, up to {TIERS[1]:,} by the 300k goals, "
        "larger ones by the 1M goals; MB = 10^6 bytes, KB = 10^3 bytes. Latencies: kept-alive HTTP on loopback, "
        f"{args.rounds} requests each; search: {args.runs} timed requests per query.")
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
        k = (m or {}).get("killed") or {}
        if k.get("rebuild_vs_synced"):
            log(f"store migration at {f['messages']:,}: the rebuilt store answers differently from the synced one "
                f"in {', '.join(k['rebuild_vs_synced'])} (the JSON has both; not judged)")
        for note in f.get("notes", []):
            log(f"at {f['messages']:,}: {note}")

    names = [k for k in PHASES if any(k in f["phases"] for f in figs)]
    log("\n| phase (wall time) | " + " | ".join(sizes) + " |")
    log("|---|" + "---:|" * len(figs))
    for name in names + ["total"]:
        cells = [f"{f['phases'][name]:.1f} s" if name in f["phases"] else "–" for f in figs]
        log(f"| {name} | " + " | ".join(cells) + " |")
    passed = sum(1 for v in verdicts if v["pass"])
    log(f"\n{passed} of {len(verdicts)} goals met.")
    return verdicts
