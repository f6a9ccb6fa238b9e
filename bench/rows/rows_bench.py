#!/usr/bin/python3
"""Times `xmpp-register batch rowsN.csv --domain example.org --dry-run` (with and without
`--shard 1/10`) for each N, round-robin so that the machine's load weighs on each alike; prints
the median wall time and the peak RSS (wait4's ru_maxrss) of each, the growth from the smallest
N to the largest, and whether the goals hold: peak RSS at most 64 MB at the largest N, and (given
a build from before) no slower than it.

usage: rows_bench.py WORKDIR RUNS BIN BEFORE_BIN|'' N...
"""
import os, statistics, sys, time

work, runs, binary, before = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
counts = [int(n) for n in sys.argv[5:]]
builds = [("now", binary)] + ([("before", before)] if before else [])
shards = [("", []), ("--shard 1/10", ["--shard", "1/10"])]


def once(program, n, extra):
    args = [program, "batch", f"{work}/rows{n}.csv", "--domain", "example.org", "--dry-run"] + extra
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execv(program, args)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"rows_bench.py: {' '.join(args)} failed with {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_maxrss / 1024


results = {}
for _ in range(runs):
    for n in counts:
        for build, program in builds:
            for shard, extra in shards:
                wall, rss = once(program, n, extra)
                entry = results.setdefault((build, shard, n), ([], []))
                entry[0].append(wall)
                entry[1].append(rss)

print("%-8s %-14s %10s %9s %10s %12s" % ("build", "run", "rows", "file MB", "wall s", "peak RSS MB"))
for build, _ in builds:
    for shard, _ in shards:
        for n in counts:
            walls, rss = results[(build, shard, n)]
            size = os.path.getsize(f"{work}/rows{n}.csv") / 1e6
            print("%-8s %-14s %10s %9.1f %10.2f %12.1f" % (build, shard or "whole file", f"{n:,}", size,
                                                           statistics.median(walls), max(rss)))
        lo, hi = results[(build, shard, counts[0])], results[(build, shard, counts[-1])]
        print("%-8s %-14s growth %s -> %s rows (x%d): time x%.1f, peak RSS x%.2f (+%.1f MB)" % (
            build, shard or "whole file", f"{counts[0]:,}", f"{counts[-1]:,}", counts[-1] // counts[0],
            statistics.median(hi[0]) / statistics.median(lo[0]), max(hi[1]) / max(lo[1]), max(hi[1]) - max(lo[1])))
    print()

failed = False
largest = counts[-1]
for shard, _ in shards:
    rss = max(results[("now", shard, largest)][1])
    ok = rss <= 64
    failed |= not ok
    print("goal: %s rows, %s: peak RSS %.1f MB <= 64 MB: %s" % (f"{largest:,}", shard or "whole file", rss, "held" if ok else "NOT HELD"))
    if before:
        now, then = (statistics.median(results[(b, shard, largest)][0]) for b in ("now", "before"))
        ok = now <= then * 1.05
        failed |= not ok
        print("goal: %s rows, %s: %.2f s against %.2f s before (x%.2f): %s" % (
            f"{largest:,}", shard or "whole file", now, then, now / then, "held" if ok else "NOT HELD"))
sys.exit(1 if failed else 0)
