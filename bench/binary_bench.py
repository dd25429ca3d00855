#!/usr/bin/env python3
"""The release binary: how big it is and how long a cold build takes (issue 42, "the binary").

Builds `mailclient` with `cargo build --release --timings` into `--target-dir` (default: a new
empty directory, so the build is cold: every crate compiled, as on a fresh machine; the registry
download is not timed when the crates are already in ~/.cargo). Prints:
  * the wall time of the build, and the slowest units from cargo's timing report;
  * the binary's size as built (stripped, the release profile) and its largest sections;
  * with `--symbols`, a second build into the same directory with the symbols kept
    (`CARGO_PROFILE_RELEASE_STRIP=false`: every crate again, not timed) and the code size per
    crate, from `nm` (what to look at when the binary grows).
PASS/FAIL against the goals: the binary < 25 MB (25,000,000 bytes), the cold build < 5 minutes.
The build time is only meaningful on a quiet machine: the script prints the load average before
and after.

Usage: bench/binary_bench.py [--target-dir DIR] [--symbols] [--markdown]
"""
import argparse, collections, glob, os, re, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOAL_BYTES, GOAL_BUILD_S = 25_000_000, 300


def build(target_dir, env_extra=None):
    """Runs the release build; returns its wall time in seconds."""
    env = dict(os.environ, CARGO_TARGET_DIR=target_dir, **(env_extra or {}))
    started = time.monotonic()
    subprocess.run(["cargo", "build", "--release", "--timings", "--quiet"], cwd=ROOT, env=env,
                   check=True)
    return time.monotonic() - started


def slowest_units(target_dir, n=5):
    """The n slowest compile units of the newest cargo timing report: [(name, seconds)]."""
    reports = sorted(glob.glob(os.path.join(target_dir, "cargo-timings", "cargo-timing-*.html")))
    if not reports:
        return []
    html = open(reports[-1]).read()
    m = re.search(r"const UNIT_DATA = (\[.*?\]);", html, re.S)
    if not m:
        return []
    import json
    units = json.loads(m.group(1))
    units.sort(key=lambda u: -u["duration"])
    return [(f'{u["name"]} {u.get("target", "").strip()}'.strip(), u["duration"]) for u in units[:n]]


def sections(binary):
    """The largest ELF sections: [(name, bytes)]."""
    out = subprocess.run(["size", "-A", binary], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            rows.append((parts[0], int(parts[1])))
    return sorted(rows, key=lambda r: -r[1])[:6]


def crate_sizes(binary, n=15):
    """Code and data per crate, from the symbol table of an unstripped build: [(crate, bytes)]."""
    out = subprocess.run(["nm", "-S", "--size-sort", "-C", binary], capture_output=True,
                         text=True, check=True).stdout
    sizes = collections.Counter()
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) < 4:
            continue
        name = parts[3].lstrip("<&* ")
        m = re.match(r"(?:dyn )?([A-Za-z_][A-Za-z0-9_]*)::", name)
        sizes[m.group(1) if m else "(C and unnamed)"] += int(parts[1], 16)
    return sizes.most_common(n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target-dir", help="default: a new empty directory (a cold build)")
    ap.add_argument("--symbols", action="store_true", help="also list the code size per crate")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    target = args.target_dir or tempfile.mkdtemp(prefix="mailclient-binary-bench-")
    print(f"load average before: {os.getloadavg()[0]:.2f}; target {target}", flush=True)
    seconds = build(target)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    binary = os.path.join(target, "release", "mailclient")
    size = os.path.getsize(binary)
    ok_size, ok_build = size < GOAL_BYTES, seconds < GOAL_BUILD_S
    print(f"cold release build: {seconds:.0f} s (goal < {GOAL_BUILD_S} s) "
          f"{'PASS' if ok_build else 'FAIL'}")
    for name, secs in slowest_units(target):
        print(f"  {secs:7.1f} s  {name}")
    print(f"binary: {size:,} bytes = {size / 1e6:.1f} MB (goal < 25 MB) "
          f"{'PASS' if ok_size else 'FAIL'}")
    for name, n in sections(binary):
        print(f"  {n / 1e6:6.2f} MB  {name}")
    if args.symbols:
        build(target, {"CARGO_PROFILE_RELEASE_STRIP": "false"})
        print("code and data per crate (unstripped build):")
        for crate, n in crate_sizes(binary):
            print(f"  {n / 1e6:6.2f} MB  {crate}")
    if args.markdown:
        print(f"| {size / 1e6:.1f} MB | {'PASS' if ok_size else 'FAIL'} | {seconds:.0f} s | "
              f"{'PASS' if ok_build else 'FAIL'} |")
    return 0 if ok_size and ok_build else 1


if __name__ == "__main__":
    sys.exit(main())
