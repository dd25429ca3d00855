#!/usr/bin/env python3
"""The initial sync over a shaped link (issue 38): mailclient against mbsync, the same Dovecot,
the same mailbox, one run, over a home link and a phone link.

The link: a network namespace of our own (mcshape-<pid>) joined to this one by a veth pair.
`tbf` on each end limits the rate one way (the namespace's end: the download, this end: the
upload); the kernel here has no `netem`, so bench/delay_relay.py adds the round trip: it listens
inside the namespace and relays, each chunk late by half the round trip each way, to the test
Dovecot on loopback. The clients run here and reach the server at the namespace's address, so
every IMAP byte crosses the shaped veth and the delay line:

    client --veth, tbf up--> relay (in mcshape-*) --15/40 ms--> Dovecot (127.0.0.1)
    client <--veth, tbf down-- relay <--15/40 ms-- Dovecot

  home   50 Mbit/s down, 10 Mbit/s up, 30 ms round trip
  phone  10 Mbit/s down, 10 Mbit/s up, 80 ms round trip

Each link is first measured as the clients get it (a second relay, the same delay, in front of
a local echo/blast server): the median round trip and a 2-second download's rate, printed in
its row. For each size N (--sizes, default 60000) the cached corpus Maildir (bench/search_bench.py) is
seeded into a fresh test Dovecot offering COMPRESS=DEFLATE (--no-compress: without), then per
link, one after the other:
  mbsync      pulls INBOX into a Maildir (bench/sync_bench.py's runner): msg/s
  mailclient  `serve` (release build), the mailbox connected (sync_bench.py's runner): msg/s
  resync      `serve` stopped and started again on the synced data dir, unchanged mailbox: the
              seconds from the process's start until the account reports a finished pass (state
              idle, lastSync after the start) -- a full reconnect: TLS, login, every folder
and for each: bytes on the wire (the veth's interface counters, both ways: IP packets with their
headers), the relay's payload bytes, the relay's CPU share (it must not be the bottleneck), and
the load average. Prints PASS/FAIL against the issue's goals (mailclient ≥ 3× mbsync on the
home link, ≥ 4× on the phone link; resync < 2 s); `--markdown` prints the table for
docs/BENCHMARKS.md. Namespace, qdiscs, relay, servers and temporary dirs are removed on exit,
on failure and on SIGINT/SIGTERM (and namespaces left by a killed run are removed at start).

Needs root (namespaces, tc). Usage:
  bench/shaped_bench.py [--sizes 60000] [--links home,phone] [--no-compress] [--markdown]
                        [--skip-mbsync] (links home-0ms, phone-0ms: the same rates, no delay)
                        [--binary $CARGO_TARGET_DIR/release/mailclient] [--json FILE]
"""
import argparse, json, os, shutil, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import big_bench  # noqa: E402
import search_bench  # noqa: E402
import sync_bench  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LINKS = {
    "home": {"down": "50mbit", "up": "10mbit", "rtt_ms": 30, "goal_ratio": 3.0},
    "phone": {"down": "10mbit", "up": "10mbit", "rtt_ms": 80, "goal_ratio": 4.0},
}
# The same rates without the delay (the relay still in the path): whether a client is bound by
# round trips shows as the difference (--links home,home-0ms --skip-mbsync). No goal.
LINKS.update({f"{k}-0ms": {**v, "rtt_ms": 0, "goal_ratio": None} for k, v in list(LINKS.items())})
RESYNC_GOAL_S = 2.0
PREFIX = "mcshape-"


def sh(*cmd, check=True):
    return subprocess.run(list(cmd), check=check, capture_output=True, text=True)


def remove_stale_namespaces():
    """Namespaces of earlier runs whose process is gone (a kill -9 leaves them)."""
    for line in sh("ip", "netns", "list").stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        if name.startswith(PREFIX):
            pid = name[len(PREFIX):]
            if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                sh("ip", "netns", "del", name, check=False)


def cpu_seconds(pid):
    """User + system CPU seconds of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ShapedLink:
    """The namespace, the veth pair and its qdiscs, and the relay; close() removes all of it."""

    def __init__(self, work):
        pid = os.getpid()
        self.ns = f"{PREFIX}{pid}"
        self.here, self.there = f"mcs{pid}a"[:15], f"mcs{pid}b"[:15]
        octet = pid % 250 + 1
        self.addr_here, self.addr = f"10.213.{octet}.1", f"10.213.{octet}.2"
        self.work, self.relay, self.relay_port = work, None, None
        self.stats_file = os.path.join(work, "relay-stats.json")
        try:
            sh("ip", "netns", "add", self.ns)
            sh("ip", "link", "add", self.here, "type", "veth", "peer", "name", self.there, "netns", self.ns)
            sh("ip", "addr", "add", f"{self.addr_here}/30", "dev", self.here)
            sh("ip", "link", "set", self.here, "up")
            sh("ip", "-n", self.ns, "addr", "add", f"{self.addr}/30", "dev", self.there)
            sh("ip", "-n", self.ns, "link", "set", self.there, "up")
            sh("ip", "-n", self.ns, "link", "set", "lo", "up")
        except BaseException:
            self.close()  # half made: nothing of it may stay
            raise

    def shape(self, link, server_port):
        """tbf both ways for `link`, and a fresh relay with its delay in front of server_port."""
        self.stop_relay()
        # The queue holds ~100 ms at the rate; tbf splits the veth's GSO packets to fit its burst.
        sh("tc", "qdisc", "replace", "dev", self.here, "root", "tbf", "rate", link["up"],
           "burst", "32kb", "latency", "100ms")
        sh("tc", "-n", self.ns, "qdisc", "replace", "dev", self.there, "root", "tbf", "rate", link["down"],
           "burst", "32kb", "latency", "100ms")
        self.relay_port = sync_bench.free_ports(1)[0]
        self.relay = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "delay_relay.py"), "--netns", self.ns,
             "--listen", f"{self.addr}:{self.relay_port}", "--connect", f"127.0.0.1:{server_port}",
             "--delay-ms", str(link["rtt_ms"] / 2), "--stats", self.stats_file],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if self.relay.stdout.readline().strip() != "ready":
            raise SystemExit(f"the relay did not start: {self.relay.stderr.read()}")

    def calibrate(self, link, blast_bytes):
        """The link as the clients get it: a relay like the clients' in front of a local echo /
        blast server: the median of 7 echoes' round trips (ms) and a download's rate (Mbit/s)."""
        srv = socket.create_server(("127.0.0.1", 0))

        def serve():
            for _ in range(2):
                c, _ = srv.accept()
                c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                with c:
                    if c.recv(1) == b"e":
                        while (d := c.recv(16)):
                            c.sendall(d)
                    else:
                        c.sendall(b"x" * blast_bytes)
        threading.Thread(target=serve, daemon=True).start()
        relay = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "delay_relay.py"), "--netns", self.ns,
             "--listen", f"{self.addr}:{self.relay_port + 1}", "--connect", f"127.0.0.1:{srv.getsockname()[1]}",
             "--delay-ms", str(link["rtt_ms"] / 2)], stdout=subprocess.PIPE, text=True)
        try:
            relay.stdout.readline()
            with socket.create_connection((self.addr, self.relay_port + 1), timeout=30) as s:
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                s.sendall(b"e")
                rtts = []
                for _ in range(7):
                    t0 = time.monotonic()
                    s.sendall(b"ping")
                    got = b""
                    while len(got) < 4:
                        got += s.recv(16)
                    rtts.append((time.monotonic() - t0) * 1000)
            with socket.create_connection((self.addr, self.relay_port + 1), timeout=30) as s:
                s.sendall(b"b")
                t0, n = time.monotonic(), 0
                while (d := s.recv(1 << 20)):
                    n += len(d)
                mbit = n * 8 / (time.monotonic() - t0) / 1e6
        finally:
            relay.terminate()
            relay.wait()
            srv.close()
        return {"rtt_ms": sorted(rtts)[3], "mbit": mbit}

    def counters(self):
        """Bytes on the veth (down = into this namespace, up = out of it), the relay's payload
        bytes and CPU seconds, and the clock."""
        def stat(name):
            with open(f"/sys/class/net/{self.here}/statistics/{name}") as f:
                return int(f.read())
        relay = {}
        for _ in range(20):  # the relay rewrites the file every 0.2 s
            try:
                with open(self.stats_file) as f:
                    relay = json.load(f)
                break
            except (OSError, ValueError):
                time.sleep(0.05)
        return {"down": stat("rx_bytes"), "up": stat("tx_bytes"), "relay_down": relay.get("down_bytes", 0),
                "relay_up": relay.get("up_bytes", 0), "relay_cpu": cpu_seconds(self.relay.pid),
                "t": time.monotonic()}

    def stop_relay(self):
        if self.relay is not None:
            self.relay.terminate()
            try:
                self.relay.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.relay.kill()
                self.relay.wait()
            self.relay = None

    def close(self):
        self.stop_relay()
        sh("ip", "netns", "del", self.ns, check=False)  # takes the veth pair and its qdiscs
        sh("ip", "link", "del", self.here, check=False)


def measured(link, fn):
    """fn() with the link's counters around it: (fn's result, the differences, load average)."""
    time.sleep(0.5)  # let the relay's stats file catch up with the previous client
    before, load = link.counters(), os.getloadavg()[0]
    out = fn()
    time.sleep(0.5)
    after = link.counters()
    d = {k: after[k] - before[k] for k in before}
    d["relay_cpu_share"] = d["relay_cpu"] / d["t"] if d["t"] else 0
    d["load"] = (load + os.getloadavg()[0]) / 2
    return out, d


def resync(binary, work, ms, started_after):
    """`serve` again on the synced data dir: seconds from the process's start until the account
    reports a finished pass (state idle, lastSync at or after the start)."""
    time.sleep(1.1)  # lastSync is in whole seconds: after this, only the new pass can match
    t_unix = int(time.time())
    t0 = time.monotonic()
    proc, api = sync_bench.serve_mailclient(binary, os.path.join(work, "mc.toml"), os.path.join(work, "mc-data"))
    try:
        while True:
            _, v, _ = api.call("GET", "/api/auth/accounts")
            sync = v["accounts"][0]["sync"] or {}
            if sync.get("state") == "idle" and (sync.get("lastSync") or 0) >= t_unix:
                break
            if time.monotonic() - t0 > 600:
                raise SystemExit(f"resync did not finish in 600 s: {sync}")
            time.sleep(0.02)
        elapsed = time.monotonic() - t0
        fetched = sync.get("fetchedMessages", 0)
    finally:
        sync_bench.stop_mailclient(proc)
    return {"seconds": elapsed, "fetched": fetched}


def run_link(name, link, args, ms, shaped, n, base):
    """mbsync, mailclient's initial sync and its resync over one shaped link."""
    shaped.shape(link, int(ms["MAILTEST_IMAPS_PORT"]))
    ms_link = {**ms, "MAILTEST_IMAP_HOST": shaped.addr, "MAILTEST_IMAPS_PORT": str(shaped.relay_port)}
    out = {"link": name, "measured": shaped.calibrate(link, int(rate_bits(link["down"]) / 8 * 2))}  # 2 s of data
    print(f"[{n:,} {name}] the link as measured: {out['measured']['rtt_ms']:.1f} ms, "
          f"{out['measured']['mbit']:.1f} Mbit/s down", flush=True)
    m = out["measured"]
    if not (link["rtt_ms"] <= m["rtt_ms"] <= link["rtt_ms"] * 1.25 + 5 and m["mbit"] <= rate_bits(link["down"]) / 1e6
            and m["mbit"] >= rate_bits(link["down"]) / 1e6 * 0.8):
        print(f"[{n:,} {name}] WARNING: the link is not as configured (a loaded machine?): "
              f"the figures below are for the measured one", flush=True)
    work = tempfile.mkdtemp(prefix=f"{name}-", dir=base)
    os.chmod(work, 0o755)
    try:
        if not args.skip_mbsync:
            print(f"[{n:,} {name}] mbsync ...", flush=True)
            # mbsync 1.4 matches only names, never an IP SAN, against the host; a certificate
            # listed in its CertificateFile is trusted as it is (the leaf, in fullchain.pem).
            ms_mbsync = {**ms_link, "MAILTEST_CA": os.path.join(os.path.dirname(ms["MAILTEST_CA"]), "fullchain.pem")}
            out["mbsync"], out["mbsync_wire"] = measured(shaped, lambda: sync_bench.run_mbsync(ms_mbsync, work))
            shutil.rmtree(os.path.join(work, "mbsync-mail"), ignore_errors=True)
            print(f"[{n:,} {name}] mbsync {rate(out['mbsync']):,.0f} msg/s", flush=True)

        def mailclient():
            proc, api = sync_bench.start_mailclient(args.binary, ms_link, work)
            try:
                return sync_bench.initial_sync(api, proc, ms_link)
            finally:
                sync_bench.stop_mailclient(proc)
        print(f"[{n:,} {name}] mailclient ...", flush=True)
        out["mailclient"], out["mailclient_wire"] = measured(shaped, mailclient)
        print(f"[{n:,} {name}] mailclient {rate(out['mailclient']):,.0f} msg/s", flush=True)
        out["resync"], out["resync_wire"] = measured(shaped, lambda: resync(args.binary, work, ms_link, 0))
        print(f"[{n:,} {name}] resync {out['resync']['seconds']:.2f} s", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def rate(r):
    return r["total"] / r["seconds"]


def mb(b):
    return f"{b / 1e6:,.1f} MB"


def rate_bits(text):
    """tc's rate text ("50mbit") in bits per second."""
    return float(text.removesuffix("mbit")) * 1e6


def link_use(result, wire, link):
    """The share of the download rate a client used: its bytes on the wire over the time its
    sync took (near 100%: bound by bandwidth; well under it: by round trips or CPU)."""
    return wire["down"] * 8 / result["seconds"] / rate_bits(link["down"])


def verdict(ok):
    return "PASS" if ok else "FAIL"


def report(n, results, compress, markdown):
    lines = []
    head = ("| link | mbsync msg/s | mailclient msg/s | ratio (goal) | mbsync on the wire (down / up) "
            "| mailclient on the wire (down / up) | link used: mbsync / mailclient "
            "| resync (goal < 2 s) | resync on the wire | relay CPU (max) | load |")
    lines += [head, "|---|---:|---:|---|---:|---:|---:|---|---:|---:|---:|"]
    for r in results:
        link = LINKS[r["link"]]
        a = rate(r["mailclient"])
        cw, rw = r["mailclient_wire"], r["resync_wire"]
        mw = r.get("mbsync_wire")
        if mw:
            b = rate(r["mbsync"])
            goal = link["goal_ratio"]
            judged = f" (≥ {goal:.0f}×) {verdict(a / b >= goal)}" if goal else ""
            mbsync_cells = (f"{b:,.0f}", f"{a / b:.2f}×{judged}", f"{mb(mw['down'])} / {mb(mw['up'])}",
                            f"{link_use(r['mbsync'], mw, link):.0%}")
        else:
            mw = cw
            mbsync_cells = ("–", "–", "–", "–")
        cpu = max(mw["relay_cpu_share"], cw["relay_cpu_share"], rw["relay_cpu_share"])
        load = (mw["load"] + cw["load"]) / 2
        lines.append(
            f"| {r['link']} ({link['down']} down, {link['up']} up, {link['rtt_ms']} ms; measured "
            f"{r['measured']['rtt_ms']:.0f} ms, {r['measured']['mbit']:.1f} Mbit/s) | {mbsync_cells[0]} | {a:,.0f} "
            f"| {mbsync_cells[1]} | {mbsync_cells[2]} | {mb(cw['down'])} / {mb(cw['up'])} "
            f"| {mbsync_cells[3]} / {link_use(r['mailclient'], cw, link):.0%} "
            f"| {r['resync']['seconds']:.2f} s {verdict(r['resync']['seconds'] < RESYNC_GOAL_S)} "
            f"| {mb(rw['down'] + rw['up'])} | {cpu:.0%} | {load:.1f} |")
    print(f"\n{n:,} messages, COMPRESS=DEFLATE {'offered' if compress else 'not offered'} by the server:")
    print("\n".join(lines))
    if not markdown:
        for r in results:
            if "mbsync" in r:
                print(f"  {r['link']}: mbsync {r['mbsync']['total']} msgs in {r['mbsync']['seconds']:.1f} s, "
                      f"relay payload {mb(r['mbsync_wire']['relay_down'])} down")
            print(f"  {r['link']}: mailclient {r['mailclient']['total']} msgs in {r['mailclient']['seconds']:.1f} s "
                  f"(first page after {r['mailclient']['first_page_s'] or 0:.2f} s), resync fetched "
                  f"{r['resync']['fetched']} messages; relay payload {mb(r['mailclient_wire']['relay_down'])} down")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="60000")
    ap.add_argument("--links", default="home,phone")
    ap.add_argument("--skip-mbsync", action="store_true", help="mailclient only (the 0 ms links' comparison)")
    ap.add_argument("--no-compress", action="store_true", help="the server offers no COMPRESS=DEFLATE")
    ap.add_argument("--binary", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(sync_bench.ROOT, "target")), "release", "mailclient"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args()
    if not os.path.exists(args.binary):
        raise SystemExit(f"build the release binary first (cargo build --release): {args.binary} is missing")
    if os.geteuid() != 0:
        raise SystemExit("needs root: network namespaces and tc")
    # SIGTERM unwinds like Ctrl-C, so every finally below runs (relay, namespace, servers, dirs).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    remove_stale_namespaces()
    subprocess.run(["bash", sync_bench.SCRIPT, "install"], check=True, stdout=subprocess.DEVNULL)
    everything = []
    for n in [int(x) for x in args.sizes.split(",")]:
        base = tempfile.mkdtemp(prefix=f"shapedbench-{n}-", dir="/var/tmp")  # the corpus cache's file system
        os.chmod(base, 0o755)  # Dovecot (user mail) reads the seeded files below it
        shaped, msdir = None, None
        try:
            shaped = ShapedLink(base)
            os.environ["MAILTEST_CERT_SAN"] = f"IP:{shaped.addr}"
            if args.no_compress:
                os.environ.pop("MAILTEST_IMAP_COMPRESS", None)
            else:
                os.environ["MAILTEST_IMAP_COMPRESS"] = "1"
            maildir, raw, _ = search_bench.build_maildir(n)
            flat = os.path.join(base, "flat")
            big_bench.link_flat(maildir, flat)
            msdir, ms = sync_bench.start_mailserver(base)
            sync_bench.seed_mailserver(msdir, flat)
            results = [run_link(name, LINKS[name], args, ms, shaped, n, base) for name in args.links.split(",")]
        finally:
            if shaped is not None:
                shaped.close()
            if msdir is not None:
                sync_bench.stop_mailserver(msdir)
            shutil.rmtree(base, ignore_errors=True)
        report(n, results, not args.no_compress, args.markdown)
        everything.append({"n": n, "raw_bytes": raw, "compress": not args.no_compress, "links": results})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(everything, f, indent=1)


if __name__ == "__main__":
    main()
