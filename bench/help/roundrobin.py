#!/usr/bin/env python3
"""Time short commands round-robin, so that a noisy shared machine weighs on each alike.

usage: roundrobin.py RUNS NAME=COMMAND... [--limit-ms N NAME...]
Each COMMAND is split on spaces. Every round runs each command once, in order, with stdin,
stdout and stderr on /dev/null; wall time comes from time.perf_counter around fork/exec/wait4,
peak RSS from wait4's rusage. A command exiting non-zero aborts. Prints one row per command
(median and minimum wall ms, peak RSS MB) and the ratio of every later row to the row named
after --base (default: the second). With --limit-ms N, exits 1 when a named command's median
is N ms or more.
"""
import os, statistics, sys, time

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
    return wall, usage.ru_maxrss / 1024

def main():
    args = sys.argv[1:]
    runs = int(args.pop(0))
    commands, limit, limited, base = [], None, [], None
    while args:
        arg = args.pop(0)
        if arg == "--limit-ms":
            limit = float(args.pop(0))
            limited, args = args, []
        elif arg == "--base":
            base = args.pop(0)
        else:
            name, command = arg.split("=", 1)
            commands.append((name, command.split()))
    devnull = os.open(os.devnull, os.O_RDWR)
    walls = {name: [] for name, _ in commands}
    rss = {name: 0.0 for name, _ in commands}
    for _ in range(runs):
        for name, argv in commands:
            wall, peak = run_once(argv, devnull)
            walls[name].append(wall)
            rss[name] = max(rss[name], peak)
    median = {name: statistics.median(values) * 1000 for name, values in walls.items()}
    base = base or commands[1][0]
    print("%-40s %9s %9s %9s %9s" % ("command", "median", "min", "peak RSS", "vs " + base.split()[0]))
    for name, _ in commands:
        print("%-40s %6.2f ms %6.2f ms %6.1f MB %8.2fx" % (
            name, median[name], min(walls[name]) * 1000, rss[name], median[name] / median[base]))
    failed = [name for name in limited if median[name] >= limit]
    for name in limited:
        verdict = "NOT under" if name in failed else "under"
        print("%s: %.2f ms, %s the %g ms target" % (name, median[name], verdict, limit))
    sys.exit(1 if failed else 0)

main()
