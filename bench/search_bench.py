#!/usr/bin/env python3
"""Import and search benchmark (issue 7): mailclient against notmuch and mu, same Maildir, one run.

One corpus: the SpamAssassin corpus repeated to N messages (default 60,000) with unique
Message-IDs and consistent References (scripts/corpus.sh repeat), laid out as a Maildir (every
message in cur/ as `<unique>:2,S`, bytes untouched) and cached under /var/tmp, keyed by N.
Then, one tool at a time, never in parallel, each on a warm page cache:

  import   `mailclient import` (release build) into a fresh data dir; `notmuch new` (private
           config: no hooks, no tags, no flag sync); `mu init` + `mu index`. Wall clock, peak RSS
           (/usr/bin/time -f %M), messages/s, and the size of what each one wrote (mailclient:
           the whole data dir, store + index) against the raw corpus (sum of the file sizes).
  search   `mailclient serve` on the imported data dir (loopback), signed in over HTTP; ten
           fixed queries, each written in the three tools' syntaxes (QUERIES below). mailclient:
           GET /api/search?q=...&perPage=20 on one kept-alive connection, 3 warm-up requests and
           then R timed ones (client wall time, and the server's own time from `Server-Timing:
           search;dur=` or else `tookMs`); notmuch: `notmuch search --output=threads --limit=20`
           and mu: `mu find --maxnum=20` (newest first, like the other two), one warm-up run and
           then R' timed runs each (wall time of the process). Result counts: the API's `total`,
           `notmuch count`, and the number of `mu find` matches, side by side: they differ where
           the tools tokenize or scope fields differently, and the table shows it.

Prints a table per query, the overall figures and PASS/FAIL for each of the issue's targets;
`--json FILE` writes every figure. Exits 0 whatever the verdicts (it is a report), non-zero
only when something failed to run.

Usage: bench/search_bench.py [--messages 60000] [--runs 50] [--cli-runs 10] [--bin PATH]
                             [--skip-notmuch] [--skip-mu] [--skip-mailclient] [--keep]
                             [--json FILE]
Needs: scripts/install-bench-deps.sh (notmuch, maildir-utils, GNU time) and, for mailclient,
the release binary (built with `cargo build --release` when missing, or always with --build).
"""
import argparse, fcntl, http.client, json, os, re, shutil, statistics, subprocess, sys
import tempfile, time, urllib.parse

sys.dont_write_bytecode = True  # no bench/__pycache__ from importing sync_bench
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sync_bench import ROOT, Api, free_ports, peak_rss_kb  # noqa: E402
from search_common import *  # noqa: E402,F401,F403 (big_bench.py reads them as search_bench.*)
from search_rivals import mu_index, mu_queries, notmuch_index, notmuch_queries  # noqa: E402,F401


# ---------------------------------------------------------------------------------------------
# the corpus

def build_maildir(n):
    """The cached Maildir of n corpus messages (all in cur/, flag S): (path, raw bytes, count)."""
    root = os.path.join(CACHE, f"maildir-{n}")
    marker = root + ".complete"
    os.makedirs(CACHE, exist_ok=True)
    with open(os.path.join(CACHE, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder at a time; the next one finds it built
        if not os.path.exists(marker):
            shutil.rmtree(root, ignore_errors=True)
            work = tempfile.mkdtemp(prefix=f"build-{n}-", dir=CACHE)
            flat = os.path.join(work, "flat")
            print(f"building a Maildir of {n:,} messages in {root} ...", flush=True)
            subprocess.run(["bash", CORPUS_SH, "repeat", str(n), flat], check=True, stdout=subprocess.DEVNULL)
            md = os.path.join(work, "maildir")
            for sub in ("cur", "new", "tmp"):
                os.makedirs(os.path.join(md, sub))
            for i, name in enumerate(sorted(os.listdir(flat))):
                # <seconds>.M<n>P<pid>.<host>:2,<flags>, the usual unique-name shape; a rename,
                # so the bytes are exactly corpus.sh's.
                os.rename(os.path.join(flat, name),
                          os.path.join(md, "cur", f"{1030000000 + i}.M{i}P1.searchbench:2,S"))
            os.rename(md, root)
            shutil.rmtree(work)
            open(marker, "w").close()
    paths = [os.path.join(root, sub, f) for sub in ("cur", "new") for f in os.listdir(os.path.join(root, sub))]
    if len(paths) != n:
        raise BenchError(f"{root} holds {len(paths)} messages, not {n}: remove it and {marker}")
    return root, sum(os.path.getsize(p) for p in paths), n


# ---------------------------------------------------------------------------------------------
# mailclient

def default_binary():
    return os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "mailclient")


def mailclient_binary(path, build):
    """The release binary: `cargo build --release` when asked to, or when the default is missing."""
    if path is None:
        path = default_binary()
        if build or not os.path.exists(path):
            print("building the release binary (cargo build --release) ...", flush=True)
            if subprocess.run(["cargo", "build", "--release"], cwd=ROOT).returncode != 0:
                raise BenchError("cargo build --release failed")
    elif build:
        raise BenchError("--build builds the default binary; leave out --bin or --build")
    if not os.access(path, os.X_OK):
        raise BenchError(f"no mailclient binary at {path} (cargo build --release)")
    # Fail before minutes of notmuch and mu if this build has no import command yet.
    p = subprocess.run([path, "import", "--help"], env=clean_env(), capture_output=True, text=True)
    if p.returncode != 0:
        raise BenchError(f"{path} has no working `import` command (issue 7 not built into this binary?):\n"
                         f"{(p.stderr or p.stdout).strip()[:500]}")
    return path


# "imported 60,000 messages into a@b (0 already there, 0 could not be read) in 12.3 s (4,878 msg/s)"
IMPORT_LINE = re.compile(r"imported ([\d,]+) messages into \S+ \(([\d,]+) already there, ([\d,]+) could not be read\) in ([\d.]+) s")


def mailclient_import(binary, maildir, n, work):
    """Fresh data dir, one user, `mailclient import` of the Maildir; timed, peak RSS, size."""
    data = os.path.join(work, "mc-data")
    env = clean_env(RUST_LOG="warn")
    p = subprocess.run([binary, "--data-dir", data, "user", "add", USER, "--password", PASSWORD],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise BenchError(f"mailclient user add failed: {p.stderr.strip()}")
    with open(os.path.join(work, "mc-import.log"), "wb") as log:
        wall, rss, out = timed_process(
            [binary, "--data-dir", data, "import", maildir, "--user", USER, "--account", ACCOUNT],
            env, "mailclient import", log)
    last = out.strip().splitlines()[-1] if out.strip() else ""
    m = IMPORT_LINE.search(last)
    num = lambda g: int(m.group(g).replace(",", ""))
    imported = num(1) if m else None
    res = {"seconds": wall, "peak_rss_bytes": rss, "stdout_last_line": last, "imported": imported,
           "already_there": num(2) if m else None, "unparseable": num(3) if m else None,
           "reported_seconds": float(m.group(4)) if m else None, "data_dir": data}
    if not m:
        print(f"  note: mailclient import's last line is not the expected summary: {last!r}")
    elif imported + res["already_there"] + res["unparseable"] != n:
        print(f"  note: mailclient import accounted for {imported + res['already_there'] + res['unparseable']}"
              f" of {n} messages")
    res["msgs_per_s"] = (imported if imported is not None else n) / wall
    res["size_disk"], res["size_apparent"] = dir_size(data)
    return res


class Server:
    """`mailclient serve` on a free loopback port, signed in; a context manager."""

    def __init__(self, binary, data, work):
        self.port = free_ports(1)[0]
        self.log = open(os.path.join(work, "mc-serve.log"), "wb")
        self.proc = subprocess.Popen([binary, "--data-dir", data, "serve", "--listen", f"127.0.0.1:{self.port}"],
                                     stdout=self.log, stderr=subprocess.STDOUT,
                                     # 500 timed searches in seconds: the per-user limit (120 a
                                     # minute) guards a shared server, not a benchmark.
                                     env=clean_env(RUST_LOG="warn", MAILCLIENT_LIMITS_SEARCH_PER_MINUTE="100000"))
        self.api = None

    def __enter__(self):
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise BenchError(f"mailclient serve exited ({self.proc.returncode}); see {self.log.name}")
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/api/health")
                if c.getresponse().status == 200:
                    c.close()
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise BenchError("mailclient serve did not answer /api/health within 60 s")
            time.sleep(0.05)
        self.api = Api(self.port)
        status, v, _ = self.api.call("POST", "/api/app/login", {"username": USER, "password": PASSWORD})
        if status != 200:
            raise BenchError(f"sign-in failed: {status} {v}")
        self.api.token = v["token"]
        return self

    def peak_rss_bytes(self):
        kb = peak_rss_kb(self.proc.pid)
        return kb * 1024 if kb else None

    def __exit__(self, *exc):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def search(api, q):
    """One GET /api/search: (status, body, client ms, server ms or None). The client time ends
    when the whole answer is read; parsing its JSON (0.13-0.16 ms of Python for a page of 20)
    is the client's work, done after."""
    path = "/api/search?" + urllib.parse.urlencode({"q": q, "perPage": 20, "tz": 0})
    headers = {"authorization": api.token} if api.token else {}
    t = time.perf_counter()
    api.conn.request("GET", path, headers=headers)
    r = api.conn.getresponse()
    data = r.read()
    client = (time.perf_counter() - t) * 1000
    status, body = r.status, (json.loads(data) if data else None)
    server = None
    m = re.search(r"search;dur=([\d.]+)", r.getheader("server-timing") or "")
    if m:
        server = float(m.group(1))
    elif isinstance(body, dict) and isinstance(body.get("tookMs"), (int, float)):
        server = float(body["tookMs"])
    return status, body, client, server


def wait_indexed(api, timeout=1800):
    """Seconds until the API stops reporting `indexing` (mail still waiting for the index)."""
    t0 = time.monotonic()
    while True:
        status, body, _, _ = search(api, QUERIES[0][1])
        if status != 200:
            raise BenchError(f"GET /api/search failed: {status} {body}")
        if not body.get("indexing"):
            return time.monotonic() - t0
        if time.monotonic() - t0 > timeout:
            raise BenchError("the index was still catching up after 30 minutes")
        time.sleep(0.5)


def mailclient_queries(server, runs):
    """Per query: count, client and server samples (ms), on one kept-alive connection."""
    out = {}
    for name, q, _, _ in QUERIES:
        # The first request of each query is cold: its results' texts are not in the
        # server's snippet cache yet (the index's pages may be, from the page cache).
        status, body, cold_c, cold_s = search(server.api, q)
        if status != 200:
            out[name] = {"error": f"{status} {body}"}
            print(f"  mailclient: {name!r} q={q!r} -> {status} {body}")
            continue
        for _ in range(2):  # 3 warm-up requests in all
            search(server.api, q)
        client, srv = [], []
        for _ in range(runs):
            status, body, c, s = search(server.api, q)
            if status != 200:
                raise BenchError(f"GET /api/search q={q!r} failed mid-run: {status} {body}")
            client.append(c)
            if s is not None:
                srv.append(s)
        out[name] = {"count": body.get("total"), "http_ms": client, "server_ms": srv,
                     "cold_http_ms": cold_c, "cold_server_ms": cold_s}
    return out


def run_mailclient_import(binary, maildir, n, work):
    print("mailclient import ...", flush=True)
    imp = mailclient_import(binary, maildir, n, work)
    print(f"  {fmt_import(imp, n)}", flush=True)
    return imp


def run_mailclient_queries(binary, imp, work, runs):
    """serve on the imported data dir, wait for the index, run the queries. (queries, serve)."""
    with Server(binary, imp["data_dir"], work) as server:
        catch_up = wait_indexed(server.api)
        if catch_up > 1:
            print(f"  note: the index caught up {catch_up:.1f} s after serve started (work the import left over)")
        print(f"mailclient queries ({runs} runs each, one kept-alive connection) ...", flush=True)
        queries = mailclient_queries(server, runs)
        serve = {"index_catch_up_s": catch_up, "peak_rss_bytes": server.peak_rss_bytes()}
    disk, apparent = dir_size(imp["data_dir"])
    if disk > imp["size_disk"] * 1.05:
        print(f"  note: the data dir grew from {mb(imp['size_disk'])} after import to {mb(disk)} after serve")
    imp["size_disk_after_serve"], imp["size_apparent_after_serve"] = disk, apparent
    return queries, serve


# ---------------------------------------------------------------------------------------------
# report

def mb(b):
    return f"{b / 1048576:,.1f} MiB" if b is not None else "-"


def ms_(v):
    return f"{v:.2f}" if v is not None else "-"


def fmt_import(r, n):
    count = r.get("imported", r.get("indexed"))
    return (f"{count if count is not None else n:,} msgs in {r['seconds']:.1f} s = {r['msgs_per_s']:,.0f} msg/s, "
            f"peak RSS {mb(r['peak_rss_bytes'])}, on disk {mb(r['size_disk'])}")


def verdict(ok):
    return "n/a " if ok is None else ("PASS" if ok else "FAIL")


def overall_figures(fig):
    """The figures over all queries: mailclient's HTTP median and p99, the server's p50 and p99,
    notmuch's and mu's medians, and notmuch median / HTTP median (None where a tool did not run)."""
    qmc, qnm, qmu = fig.get("mailclient_queries") or {}, fig.get("notmuch_queries") or {}, fig.get("mu_queries") or {}
    all_http = [x for d in qmc.values() for x in d.get("http_ms") or []]
    all_srv = [x for d in qmc.values() for x in d.get("server_ms") or []]
    all_nm = [x for d in qnm.values() for x in d.get("ms") or []]
    http_med, nm_med = median(all_http), median(all_nm)
    return {"http_median_ms": http_med, "http_p99_ms": percentile(all_http, 0.99),
            "server_p50_ms": median(all_srv), "server_p99_ms": percentile(all_srv, 0.99),
            "notmuch_median_ms": nm_med,
            "mu_median_ms": median([x for d in qmu.values() for x in d.get("ms", [])]),
            "notmuch_over_http": nm_med / http_med if http_med and nm_med else None}


def report(n, raw, fig, mc_bin):
    imp, nm, mu = fig.get("mailclient_import"), fig.get("notmuch_index"), fig.get("mu_index")
    qmc, qnm, qmu = fig.get("mailclient_queries") or {}, fig.get("notmuch_queries") or {}, fig.get("mu_queries") or {}
    print(f"\n=== search_bench: {n:,} messages, raw corpus {raw:,} bytes ({mb(raw)}) ===")
    print("\nimport")
    print(f"  {'tool':11} {'msg/s':>9} {'seconds':>8} {'peak RSS':>12} {'on disk':>12} {'vs corpus':>9}")
    for label, r in (("mailclient", imp), ("notmuch", nm), ("mu", mu)):
        if r:
            size = max(r["size_disk"], r.get("size_disk_after_serve", 0))
            print(f"  {label:11} {r['msgs_per_s']:9,.0f} {r['seconds']:8.1f} {mb(r['peak_rss_bytes']):>12} "
                  f"{mb(size):>12} {size / raw:8.2f}x")
    if imp and mu:
        print(f"  mailclient / mu messages per second: {imp['msgs_per_s'] / mu['msgs_per_s']:.2f}x")
    if imp and nm:
        print(f"  mailclient / notmuch messages per second: {imp['msgs_per_s'] / nm['msgs_per_s']:.2f}x")

    print("\nqueries (ms; mailclient over HTTP on one kept-alive connection; notmuch and mu per process run)")
    hdr = (f"  {'query':18} {'mc':>6} {'nm':>6} {'mu':>6} | {'http p50':>8} {'http p99':>8} {'srv p50':>7} "
           f"{'srv p99':>7} | {'notmuch':>7} {'mu':>7} | {'nm/http':>7}")
    print(hdr)
    for name, q_mc, q_nm, q_mu in QUERIES:
        a, b, c = qmc.get(name) or {}, qnm.get(name) or {}, qmu.get(name) or {}
        http_ms, srv_ms = a.get("http_ms") or [], a.get("server_ms") or []
        hm, nmm, mum = median(http_ms), median(b.get("ms") or []), median(c.get("ms") or [])
        ratio = f"{nmm / hm:.1f}x" if hm and nmm else "-"
        cnt = lambda d: "err" if "error" in d else (str(d["count"]) if "count" in d else "-")
        print(f"  {name:18} {cnt(a):>6} {cnt(b):>6} {cnt(c):>6} | {ms_(hm):>8} {ms_(percentile(http_ms, 0.99)):>8} "
              f"{ms_(median(srv_ms)):>7} {ms_(percentile(srv_ms, 0.99)):>7} | {ms_(nmm):>7} {ms_(mum):>7} | {ratio:>7}")
    print("\n  the queries as written (mailclient | notmuch | mu):")
    for name, q_mc, q_nm, q_mu in QUERIES:
        print(f"    {name:18} {q_mc}  |  {q_nm}  |  {q_mu}")

    overall = overall_figures(fig)
    all_http = [x for d in qmc.values() for x in d.get("http_ms") or []]
    http_med, nm_med = overall["http_median_ms"], overall["notmuch_median_ms"]
    srv_p50, srv_p99 = overall["server_p50_ms"], overall["server_p99_ms"]
    print("\noverall")
    failed = [name for name, d in qmc.items() if "error" in d]
    if failed:
        print(f"  mailclient: {len(failed)} of {len(QUERIES)} queries failed ({', '.join(failed)}); "
              "its figures are over the others")
    if all_http:
        print(f"  mailclient HTTP median {ms_(http_med)} ms, p99 {ms_(overall['http_p99_ms'])} ms; "
              f"server p50 {ms_(srv_p50)} ms, p99 {ms_(srv_p99)} ms")
    cold_http = [d["cold_http_ms"] for d in qmc.values() if d.get("cold_http_ms") is not None]
    cold_srv = [d["cold_server_ms"] for d in qmc.values() if d.get("cold_server_ms") is not None]
    if cold_http:
        overall["cold_http_median_ms"] = median(cold_http)
        overall["cold_server_median_ms"] = median(cold_srv) if cold_srv else None
        print(f"  first request of each query (no snippet texts cached): HTTP median "
              f"{ms_(median(cold_http))} ms, max {ms_(max(cold_http))} ms; server median "
              f"{ms_(median(cold_srv)) if cold_srv else '-'} ms")
    if fig.get("mailclient_serve"):
        s = fig["mailclient_serve"]
        print(f"  serve peak RSS {mb(s['peak_rss_bytes'])}; index caught up {s['index_catch_up_s']:.1f} s after start")
    if nm_med:
        print(f"  notmuch search median {ms_(nm_med)} ms", end="")
        print(f"; notmuch / HTTP {overall['notmuch_over_http']:.1f}x" if overall["notmuch_over_http"] else "")
    if overall["mu_median_ms"]:
        print(f"  mu find median {ms_(overall['mu_median_ms'])} ms")

    size = max(imp["size_disk"], imp.get("size_disk_after_serve", 0)) if imp else None
    t = TARGETS
    ratio_mu = imp["msgs_per_s"] / mu["msgs_per_s"] if imp and mu else None
    nm_ratio = overall["notmuch_over_http"]
    # (target, pass: True / False / None when a figure is missing, the figure)
    checks = [
        (f"import >= {t['import_vs_mu']:g}x mu index msg/s",
         None if ratio_mu is None else ratio_mu >= t["import_vs_mu"],
         f"{ratio_mu:.2f}x" if ratio_mu else "needs mailclient and mu"),
        (f"import peak RSS < 250 MB ({t['import_rss_bytes'] / 1048576:.1f} MiB)",
         None if not imp else imp["peak_rss_bytes"] < t["import_rss_bytes"],
         mb(imp["peak_rss_bytes"]) if imp else "needs mailclient"),
        ("data dir (store + index) <= raw corpus", None if not imp else size <= raw,
         f"{mb(size)} vs {mb(raw)}" if imp else "needs mailclient"),
        (f"server p50 < {t['server_p50_ms']:g} ms", None if srv_p50 is None else srv_p50 < t["server_p50_ms"],
         f"{ms_(srv_p50)} ms"),
        (f"server p99 < {t['server_p99_ms']:g} ms", None if srv_p99 is None else srv_p99 < t["server_p99_ms"],
         f"{ms_(srv_p99)} ms"),
        (f"HTTP median <= {t['http_over_engine']:g}x the engine's p50 (the time outside the search)",
         None if not (http_med and srv_p50) else http_med <= t["http_over_engine"] * srv_p50,
         f"{http_med / srv_p50:.2f}x ({ms_(http_med)} / {ms_(srv_p50)} ms)" if http_med and srv_p50 else "needs mailclient"),
        (f"HTTP median >= {t['http_vs_notmuch']:g}x faster than notmuch search median",
         None if nm_ratio is None else nm_ratio >= t["http_vs_notmuch"],
         f"{nm_ratio:.1f}x" if nm_ratio else "needs mailclient and notmuch"),
    ]
    print("\ntargets (issue 7)")
    results = []
    for label, ok, value in checks:
        print(f"  {verdict(ok)}  {label}: {value}")
        results.append({"target": label, "pass": ok, "value": value})
    fig["overall"] = overall
    fig["targets"] = results
    fig["binary"] = mc_bin


def versions():
    v = {}
    for tool, cmd in (("notmuch", ["notmuch", "--version"]), ("mu", ["mu", "--version"])):
        try:
            v[tool] = subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            v[tool] = None
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--messages", type=int, default=60000, help="corpus size (default 60000)")
    ap.add_argument("--runs", type=int, default=50, help="timed requests per query for mailclient (default 50)")
    ap.add_argument("--cli-runs", type=int, default=10, help="timed runs per query for notmuch and mu (default 10)")
    ap.add_argument("--bin", help="mailclient binary (default: target/release/mailclient, built when missing)")
    ap.add_argument("--build", action="store_true", help="run cargo build --release first")
    ap.add_argument("--skip-mailclient", action="store_true")
    ap.add_argument("--skip-notmuch", action="store_true")
    ap.add_argument("--skip-mu", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the work dir (data dir, indexes, logs)")
    ap.add_argument("--json", metavar="FILE", help="write every figure to FILE")
    args = ap.parse_args()
    if args.messages < 1 or args.runs < 1 or args.cli_runs < 1:
        ap.error("--messages, --runs and --cli-runs must be at least 1")

    try:
        for tool, skip, pkg in (("notmuch", args.skip_notmuch, "notmuch"), ("mu", args.skip_mu, "maildir-utils")):
            if not skip and not shutil.which(tool):
                raise BenchError(f"{tool} is missing ({pkg}): run scripts/install-bench-deps.sh, or --skip-{tool}")
        mc_bin = None if args.skip_mailclient else mailclient_binary(args.bin, args.build)
        maildir, raw, n = build_maildir(args.messages)
        print(f"corpus: {n:,} messages, {raw:,} bytes ({mb(raw)}) in {maildir}")
        work = tempfile.mkdtemp(prefix=f"searchbench-{n}-", dir="/var/tmp")
        fig = {"messages": n, "raw_corpus_bytes": raw, "maildir": maildir, "work": work,
               "date": time.strftime("%Y-%m-%d"), "versions": versions(), "queries": QUERIES,
               "runs": args.runs, "cli_runs": args.cli_runs}
        ok = False
        try:
            warm_page_cache(maildir)
            # The three imports, then the three query runs: one tool at a time.
            if mc_bin:
                fig["mailclient_import"] = run_mailclient_import(mc_bin, maildir, n, work)
            if not args.skip_notmuch:
                print("notmuch new ...", flush=True)
                fig["notmuch_index"], nm_env = notmuch_index(maildir, n, work)
                print(f"  {fmt_import(fig['notmuch_index'], n)}", flush=True)
            if not args.skip_mu:
                print("mu index ...", flush=True)
                fig["mu_index"], mu = mu_index(maildir, n, work)
                print(f"  {fmt_import(fig['mu_index'], n)}", flush=True)
            if mc_bin:
                fig["mailclient_queries"], fig["mailclient_serve"] = run_mailclient_queries(
                    mc_bin, fig["mailclient_import"], work, args.runs)
            if not args.skip_notmuch:
                print(f"notmuch queries ({args.cli_runs} runs each) ...", flush=True)
                fig["notmuch_queries"] = notmuch_queries(nm_env, args.cli_runs)
            if not args.skip_mu:
                print(f"mu queries ({args.cli_runs} runs each) ...", flush=True)
                fig["mu_queries"] = mu_queries(mu, args.cli_runs)
            report(n, raw, fig, mc_bin)
            ok = True
        finally:
            if args.keep or not ok:  # after a failure, the logs are what is left to read
                print(f"\nkept: {work}", file=sys.stderr if not ok else sys.stdout)
            else:
                shutil.rmtree(work, ignore_errors=True)
                fig["work"] = None
        if args.json:
            with open(args.json, "w") as f:
                json.dump(fig, f, indent=1)
            print(f"figures written to {args.json}")
    except BenchError as e:
        print(f"search_bench: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
