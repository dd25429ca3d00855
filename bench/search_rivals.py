"""The rivals of search_bench.py: notmuch and mu, each indexing the same Maildir and answering the
same ten queries in its own syntax (see search_bench.py)."""
import os, subprocess, sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search_common import ACCOUNT, QUERIES, BenchError, clean_env, dir_size, time_cli, timed_process  # noqa: E402


# ---------------------------------------------------------------------------------------------
# notmuch

def notmuch_setup(maildir, work):
    home = os.path.join(work, "notmuch")
    db, hooks = os.path.join(home, "db"), os.path.join(home, "no-hooks")
    os.makedirs(db)
    os.makedirs(hooks)
    cfg = os.path.join(home, "config")
    with open(cfg, "w") as f:
        f.write(f"""[database]
path={db}
mail_root={maildir}
hook_dir={hooks}
[user]
name=Bench
primary_email={ACCOUNT}
[new]
tags=
ignore=
[search]
exclude_tags=
[maildir]
synchronize_flags=false
""")
    env = clean_env(NOTMUCH_CONFIG=cfg, TZ="UTC", HOME=home, XDG_CONFIG_HOME=home, XDG_DATA_HOME=home)
    env.pop("NOTMUCH_PROFILE", None)
    return db, env


def notmuch_index(maildir, n, work):
    db, env = notmuch_setup(maildir, work)
    wall, rss, _ = timed_process(["notmuch", "new", "--quiet"], env, "notmuch new")
    count = int(subprocess.run(["notmuch", "count", "*"], env=env, capture_output=True, text=True, check=True).stdout)
    disk, apparent = dir_size(db)
    return {"seconds": wall, "peak_rss_bytes": rss, "indexed": count, "msgs_per_s": count / wall,
            "size_disk": disk, "size_apparent": apparent}, env


def notmuch_queries(env, runs):
    out = {}
    for name, _, q, _ in QUERIES:
        count = int(subprocess.run(["notmuch", "count", q], env=env, capture_output=True, text=True,
                                   check=True).stdout)
        ms = time_cli(["notmuch", "search", "--output=threads", "--limit=20", q], env, runs)
        out[name] = {"count": count, "ms": ms}
    return out


# ---------------------------------------------------------------------------------------------
# mu

def mu_index(maildir, n, work):
    home = os.path.join(work, "mu")
    os.makedirs(home)
    env = clean_env(TZ="UTC", HOME=home, XDG_CACHE_HOME=home, XDG_CONFIG_HOME=home)
    p = subprocess.run(["mu", "init", f"--maildir={maildir}", f"--muhome={home}", f"--my-address={ACCOUNT}"],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise BenchError(f"mu init failed: {p.stderr.strip()}")
    wall, rss, _ = timed_process(["mu", "index", "--quiet", f"--muhome={home}"], env, "mu index")
    count = mu_count(home, env, "")
    disk, apparent = dir_size(home)
    return {"seconds": wall, "peak_rss_bytes": rss, "indexed": count, "msgs_per_s": count / wall,
            "size_disk": disk, "size_apparent": apparent}, (home, env)


def mu_count(home, env, q):
    # mu has no count command: one line per match with only the path field. "" = everything.
    p = subprocess.run(["mu", "find", f"--muhome={home}", "--fields=l", q or ""], env=env,
                       capture_output=True, text=True)
    if p.returncode not in (0, 2, 4):
        raise BenchError(f"mu find {q!r} failed (exit {p.returncode}): {p.stderr.strip()}")
    return len([l for l in p.stdout.splitlines() if l.strip()])


def mu_queries(mu, runs):
    home, env = mu
    out = {}
    for name, _, _, q in QUERIES:
        count = mu_count(home, env, q)
        ms = time_cli(["mu", "find", f"--muhome={home}", "--maxnum=20", "--sortfield=date", "--reverse", q],
                      env, runs)
        out[name] = {"count": count, "ms": ms}
    return out
