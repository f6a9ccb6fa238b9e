#!/usr/bin/env python3
"""Time short commands round-robin, so that a noisy shared machine weighs on each alike.

usage: roundrobin.py RUNS NAME=COMMAND... [--base NAME] [--peer NAME] [--rss-limit-mb N NAME...]
                    [--peer-ratio-limit N NAME...] [--limit-ms N NAME...]
Each COMMAND is split on spaces. Every round runs each command once, in order, with stdin,
stdout and stderr on /dev/null; wall time comes from time.perf_counter around fork/exec/wait4.
Peak RSS comes from /usr/bin/time %M (the median of 5 extra runs): wait4's ru_maxrss of a child
forked from Python counts the Python process it was copied from (about 8 MB, the floor of every
row), /usr/bin/time's own copy is about 1.5 MB. A command exiting non-zero aborts. Prints one
row per command (median and minimum wall ms, peak RSS MB) and the ratio of every later row to
the row named after --base (default: the second); with --peer NAME also the time and RSS
ratios to that row. With --limit-ms N, exits 1 when a named
command's median is N ms or more; with --rss-limit-mb N, when a named command's peak RSS is
more than N MB; with --peer-ratio-limit N, when a named command's median is more than N times
the peer's.
"""
import os, statistics, subprocess, sys, tempfile, time

def peak_rss_mb(argv, runs=5):
    """Median peak RSS of `argv` in MB, as /usr/bin/time -f %M reports it."""
    peaks = []
    with tempfile.NamedTemporaryFile("r") as out:
        for _ in range(runs):
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + argv, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            out.seek(0)
            peaks.append(int(out.read().split()[-1]) / 1024)
    return statistics.median(peaks)

def run_once(argv, devnull):
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"roundrobin.py: {' '.join(argv)} exited with {os.waitstatus_to_exitcode(status)}")
    return wall

def main():
    args = sys.argv[1:]
    runs = int(args.pop(0))
    commands, limit, limited, base = [], None, [], None
    rss_limit, rss_limited, peer = None, [], None
    ratio_limit, ratio_limited = None, []
    while args:
        arg = args.pop(0)
        if arg == "--limit-ms":
            limit = float(args.pop(0))
            limited, args = args, []
        elif arg == "--rss-limit-mb":
            rss_limit = float(args.pop(0))
            while args and not args[0].startswith("--"):
                rss_limited.append(args.pop(0))
        elif arg == "--peer-ratio-limit":
            ratio_limit = float(args.pop(0))
            while args and not args[0].startswith("--"):
                ratio_limited.append(args.pop(0))
        elif arg == "--base":
            base = args.pop(0)
        elif arg == "--peer":
            peer = args.pop(0)
        else:
            name, command = arg.split("=", 1)
            commands.append((name, command.split()))
    devnull = os.open(os.devnull, os.O_RDWR)
    walls = {name: [] for name, _ in commands}
    for _ in range(runs):
        for name, argv in commands:
            walls[name].append(run_once(argv, devnull))
    rss = {name: peak_rss_mb(argv) for name, argv in commands}
    median = {name: statistics.median(values) * 1000 for name, values in walls.items()}
    base = base or commands[1][0]
    head = "%-40s %9s %9s %9s %9s" % ("command", "median", "min", "peak RSS", "vs " + base.split()[0])
    print(head + ("  %s" % ("time/RSS vs " + peer.split()[0]) if peer else ""))
    for name, _ in commands:
        row = "%-40s %6.2f ms %6.2f ms %6.1f MB %8.2fx" % (
            name, median[name], min(walls[name]) * 1000, rss[name], median[name] / median[base])
        if peer:
            row += "  %5.2fx / %4.2fx" % (median[name] / median[peer], rss[name] / rss[peer])
        print(row)
    failed = [name for name in limited if median[name] >= limit]
    for name in limited:
        verdict = "held" if name not in failed else "NOT held"
        print("%s: %.2f ms (goal under %g ms): %s" % (name, median[name], limit, verdict))
    rss_failed = [name for name in rss_limited if rss[name] > rss_limit]
    for name in rss_limited:
        verdict = "held" if name not in rss_failed else "NOT held"
        print("%s: peak RSS %.1f MB (goal <= %g MB): %s" % (name, rss[name], rss_limit, verdict))
    ratio_failed = [name for name in ratio_limited if median[name] > ratio_limit * median[peer]]
    for name in ratio_limited:
        verdict = "held" if name not in ratio_failed else "NOT held"
        print("%s: %.2fx %s's time (goal <= %gx): %s" % (name, median[name] / median[peer], peer.split()[0], ratio_limit, verdict))
    sys.exit(1 if failed or rss_failed or ratio_failed else 0)

main()
