#!/usr/bin/python3
"""Driver of bench/rows/real-end: what a real run's plan and end hold at N rows, without
waiting for N accounts to be made. `xmpp-register batch FILE --admin --report R` of N fresh
rows against one ejabberd node, stopped by SIGINT after SECONDS: the run plans every row,
sends for SECONDS, then finishes as an interrupted run does — the journal read back and the
report of all N rows written. Peak RSS (wait4's ru_maxrss, the largest of the runs) and wall
time (median) per build, round-robin; each report must list every row.

usage: real_end_bench.py WORK PORT CAFILE SECONDS RUNS N BUILD=BIN...
"""
import os, signal, statistics, subprocess, sys, time

work, port, cafile, seconds, runs, n = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
builds = [tuple(b.split("=", 1)) for b in sys.argv[7:]]
env = dict(os.environ)


def once(build, program, k):
    prefix = f"e{build[0]}{k}x"
    csv, report = f"{work}/{prefix}.csv", f"{work}/{prefix}-report.csv"
    with open(csv, "w") as f:
        f.write("username,password\n")
        f.writelines(f"{prefix}{i},pw-{prefix}-{i}\n" for i in range(n))
    args = [program, "batch", csv, "--domain", "localhost", "--admin", "-a", "boss@localhost", "--jobs", "4", "--window", "4",
            "-q", "--report", report, "--server", f"127.0.0.1:{port}", "--ca-file", cafile]
    start = time.perf_counter()
    child = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(seconds)
    child.send_signal(signal.SIGINT)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    with open(report, encoding="utf-8") as f:
        rows = sum(1 for _ in f) - 1
    if rows != n:
        sys.exit(f"real_end_bench.py: {build}'s report lists {rows} rows, not {n} (exit {os.waitstatus_to_exitcode(status)})")
    return wall, usage.ru_maxrss / 1024


results = {}
for k in range(runs):
    for build, program in builds:
        wall, rss = once(build, program, k)
        entry = results.setdefault(build, ([], []))
        entry[0].append(wall)
        entry[1].append(rss)
print("%-8s %10s %12s %10s %12s" % ("build", "rows", "sent for s", "wall s", "peak RSS MB"))
for build, (walls, rss) in results.items():
    print("%-8s %10s %12.0f %10.1f %12.1f" % (build, f"{n:,}", seconds, statistics.median(walls), max(rss)))
