#!/usr/bin/python3
"""Runs the contenders of bench/vcard round-robin and prints median wall time, median CPU time
(user + system of the process and everything it waited for), peak RSS and ratios.

    measure.py RUNS BASE_LABEL LABEL=SHELL_COMMAND... [--check LABEL=COUNT:TEXT]...

Each command runs under /bin/sh with stdout captured and stderr discarded. --check requires TEXT
to occur exactly COUNT times in a contender's output, so one that silently fetched less fails
the benchmark instead of winning it.
"""
import os
import statistics
import subprocess
import sys
import time

runs = int(sys.argv[1])
base = sys.argv[2]
contenders, checks = [], {}
args = sys.argv[3:]
while args:
    a = args.pop(0)
    if a == "--check":
        label, spec = args.pop(0).split("=", 1)
        count, text = spec.split(":", 1)
        checks[label] = (int(count), text.encode())
    else:
        label, command = a.split("=", 1)
        contenders.append((label, command))

times = {label: [] for label, _ in contenders}
cpu = {label: [] for label, _ in contenders}
rss = {label: 0 for label, _ in contenders}
for run in range(runs):
    for label, command in contenders:
        start = time.monotonic()
        p = subprocess.Popen(["/bin/sh", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out = p.stdout.read()
        _, status, usage = os.wait4(p.pid, 0)
        elapsed = time.monotonic() - start
        if status != 0:
            sys.exit(f"{label}: exit status {status >> 8}: {command}")
        if label in checks and out.count(checks[label][1]) != checks[label][0]:
            sys.exit(f"{label}: expected {checks[label][0]} × {checks[label][1]!r}, got {out.count(checks[label][1])}: {out[:300]!r}")
        times[label].append(elapsed)
        cpu[label].append(usage.ru_utime + usage.ru_stime)
        rss[label] = max(rss[label], usage.ru_maxrss)

base_median = statistics.median(times[base])
base_cpu = statistics.median(cpu[base])
print(f"{'contender':<52} {'wall':>8} {'min':>8} {'CPU':>8} {'peak RSS':>9} {'wall ratio':>10} {'CPU ratio':>9}")
for label, _ in contenders:
    m, c = statistics.median(times[label]), statistics.median(cpu[label])
    print(f"{label:<52} {m:7.3f}s {min(times[label]):7.3f}s {c:7.3f}s {rss[label] / 1024:7.1f}MB "
          f"{m / base_median:9.2f}x {c / base_cpu:8.1f}x")
print(f"(ratios against: {base})")
