"""What search_bench.py and its rivals share: the cache, the ten queries in three syntaxes, the
targets, and the helpers that time processes and measure directories."""
import argparse, fcntl, http.client, json, os, re, shutil, statistics, subprocess, sys
import tempfile, time, urllib.parse

sys.dont_write_bytecode = True  # no bench/__pycache__ from importing sync_bench
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sync_bench import ROOT, Api, free_ports, peak_rss_kb  # noqa: E402

CORPUS_SH = os.path.join(ROOT, "scripts", "corpus.sh")
# Where the generated Maildirs are kept between runs (one per N). Not MAILCLIENT_*: the binary
# reads those as its own configuration.
CACHE = os.environ.get("SEARCH_BENCH_CACHE", "/var/tmp/mailclient-searchbench")
GNU_TIME = "/usr/bin/time"

USER, PASSWORD, ACCOUNT = "bench", "bench password 1", "bench@example.test"

# The ten queries: (what it tests, mailclient's query language, notmuch, mu 1.8).
# Picked from the corpus (scripts/corpus.sh dir; mail of 2002-01..2002-10, most of it
# 2002-08..2002-10), so each one matches something from the first 2,000 messages on; the
# repetition r of the corpus rewrites every Message-ID to <rR-...>, so the id query finds
# exactly one message at any N >= 3. Dates are read in UTC by all three (tz=0 for the API,
# TZ=UTC for notmuch and mu). notmuch's and mu's ranges include their end day, so ..08-31 is
# the same span as mailclient's `before:2002-09-01` (before that day).
QUERIES = [
    ("common word", "people", "people", "people"),
    ("rare word", "wildlife", "wildlife", "wildlife"),
    ("from:", "from:tim.one@comcast.net", "from:tim.one@comcast.net", "from:tim.one@comcast.net"),
    ("subject:", "subject:spambayes", "subject:spambayes", "subject:spambayes"),
    ("phrase", '"open source"', '"open source"', '"open source"'),
    ("date range", "after:2002-08-01 before:2002-09-01", "date:2002-08-01..2002-08-31",
     "date:20020801..20020831"),
    ("message-id", "id:r0-E17hrT0-0004gj-00@rhenium.btinternet.com",
     "id:r0-E17hrT0-0004gj-00@rhenium.btinternet.com",
     "msgid:r0-E17hrT0-0004gj-00@rhenium.btinternet.com"),
    ("word + date range", "python after:2002-09-01 before:2002-10-01",
     "python and date:2002-09-01..2002-09-30", "python and date:20020901..20020930"),
    ("negation", "software -microsoft", "software and not microsoft", "software and not microsoft"),
    ("to: (To or Cc)", "to:ilug@linux.ie", "to:ilug@linux.ie", "(to:ilug@linux.ie or cc:ilug@linux.ie)"),
]

TARGETS = {  # from issue 7, "Done when"
    "import_vs_mu": 4.0,          # mailclient import msgs/s >= 4x mu index
    "import_rss_bytes": 250e6,    # peak RSS of the import under 250 MB
    "server_p50_ms": 2.0,
    "server_p99_ms": 20.0,
    "http_vs_notmuch": 5.0,       # notmuch median / HTTP median >= 5
    "http_over_engine": 2.0,      # HTTP median <= 2x the engine's p50 (issue 42)
}


class BenchError(Exception):
    """Something could not be run: printed as one clear line, exit status 1."""


# ---------------------------------------------------------------------------------------------
# helpers

def percentile(samples, p):
    s = sorted(samples)
    return s[min(len(s) - 1, int(len(s) * p))] if s else None


def median(samples):
    return statistics.median(samples) if samples else None


def dir_size(path):
    """(bytes on disk as du counts them, apparent bytes) of everything under path."""
    disk = apparent = 0
    for d, _, files in os.walk(path):
        for f in files:
            try:
                st = os.lstat(os.path.join(d, f))
            except OSError:
                continue
            disk += st.st_blocks * 512
            apparent += st.st_size
    return disk, apparent


def clean_env(**extra):
    """The caller's environment without MAILCLIENT_* (so the binary runs on its defaults)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAILCLIENT_")}
    env.update(extra)
    return env


def timed_process(cmd, env, label, log=None):
    """Runs cmd under GNU time: (wall seconds, peak RSS in bytes, stdout text)."""
    if not os.access(GNU_TIME, os.X_OK):
        raise BenchError(f"{GNU_TIME} is missing: run scripts/install-bench-deps.sh")
    os.sync()  # the previous tool's writes are not flushed on this one's clock
    fd, rss_file = tempfile.mkstemp(prefix="searchbench-rss-")
    os.close(fd)
    try:
        t0 = time.monotonic()
        p = subprocess.run([GNU_TIME, "-f", "%M", "-o", rss_file, *cmd], env=env,
                           stdout=subprocess.PIPE, stderr=log or subprocess.PIPE)
        wall = time.monotonic() - t0
        with open(rss_file) as f:
            lines = [l for l in f.read().splitlines() if l.strip()]
    finally:
        os.unlink(rss_file)
    if p.returncode != 0:
        err = p.stderr.decode(errors="replace")[-2000:] if p.stderr else f"(see {log.name})"
        raise BenchError(f"{label} failed (exit {p.returncode}): {' '.join(cmd)}\n{err}")
    return wall, int(lines[-1]) * 1024, p.stdout.decode(errors="replace")


def warm_page_cache(maildir):
    for sub in ("cur", "new"):
        d = os.path.join(maildir, sub)
        for name in os.listdir(d):
            with open(os.path.join(d, name), "rb") as f:
                while f.read(1 << 20):
                    pass


def time_cli(cmd, env, runs):
    """Wall ms of `runs` runs of cmd after one warm-up (exit 1 from mu = no match, fine)."""
    samples = []
    for i in range(runs + 1):
        t = time.perf_counter()
        p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        ms = (time.perf_counter() - t) * 1000
        if p.returncode not in (0, 2, 4):  # mu find: 2 (1.6) / 4 (1.8) = no matches
            raise BenchError(f"{' '.join(cmd)} failed (exit {p.returncode}): {p.stderr.decode()[-500:]}")
        if i:
            samples.append(ms)
    return samples
