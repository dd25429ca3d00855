#!/usr/bin/env python3
"""Two mailclient binaries on the same mail, request for request: a before/after check for a
change that could slow the inbox. Imports a Maildir (default: the search benchmark's 60,000
messages, built by bench/search_bench.py) once with the first binary, copies the data dir, then
serves each copy with its binary in turn (A, B, A, B), waits until the index has caught up, and
times 300 kept-alive requests per API path. The second binary may be newer: it migrates its copy.

Usage: bench/compare_bins.py BEFORE_BIN AFTER_BIN [--maildir DIR] [--rounds 2]
"""
import argparse, http.client, json, os, shutil, socket, statistics, subprocess, tempfile, time

PATHS = ["/api/emails/counts", "/api/emails/inbox-zero", "/api/threads/inbox", "/api/emails/inbox",
         "/api/threads/starred"]
PASSWORD = "bench password 1"


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port


def measure(binary, data):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAILCLIENT_")}
    env["RUST_LOG"] = "warn"
    proc = subprocess.Popen([binary, "--data-dir", data, "serve", "--listen", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        for _ in range(400):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close(); break
            except OSError:
                time.sleep(0.05)
        c = http.client.HTTPConnection("127.0.0.1", port)

        def call(method, path, body=None, token=None):
            headers = {"content-type": "application/json"}
            if token:
                headers["authorization"] = token
            c.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            r = c.getresponse()
            return r.status, r.read()

        _, d = call("POST", "/api/app/login", {"username": "bench", "password": PASSWORD})
        token = json.loads(d)["token"]
        for _ in range(240):  # the index catches up (and a migration finishes) first
            s, d = call("GET", "/api/search?q=people&perPage=1", token=token)
            if s == 200 and json.loads(d).get("indexing") is False:
                break
            time.sleep(0.5)
        time.sleep(2)
        out = {}
        for path in PATHS:
            for _ in range(5):
                call("GET", path, token=token)
            samples = []
            for _ in range(300):
                t = time.perf_counter()
                s, _ = call("GET", path, token=token)
                samples.append((time.perf_counter() - t) * 1000)
                assert s == 200, path
            samples.sort()
            out[path] = (statistics.median(samples), samples[int(len(samples) * 0.95)])
        return out
    finally:
        proc.terminate(); proc.wait(timeout=30)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before"); ap.add_argument("after")
    ap.add_argument("--maildir", default="/var/tmp/mailclient-searchbench/maildir-60000")
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="mc-compare-")
    try:
        base = os.path.join(work, "base")
        subprocess.run([a.before, "--data-dir", base, "user", "add", "bench", "--admin"],
                       input=f"{PASSWORD}\n".encode(), check=True, capture_output=True)
        subprocess.run([a.before, "--data-dir", base, "import", a.maildir, "--user", "bench"],
                       check=True, capture_output=True)
        runs = []
        for r in range(a.rounds):
            for name, binary in (("before", a.before), ("after", a.after)):
                data = os.path.join(work, f"{name}-{r}")
                shutil.copytree(base, data)
                runs.append((name, measure(binary, data)))
        print("| request | " + " | ".join(n for n, _ in runs) + " |")
        print("|---|" + "---:|" * len(runs))
        for path in PATHS:
            print(f"| `{path}` | " + " | ".join(f"{m[path][0]:.2f} / {m[path][1]:.2f}" for _, m in runs) + " |")
        print("\n(p50 / p95 ms over 300 kept-alive requests)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
