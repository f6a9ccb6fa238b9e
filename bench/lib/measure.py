#!/usr/bin/env python3
"""Run a command N times; print median wall seconds and peak RSS (MB) as JSON.

usage: measure.py RUNS [--stdin FILE] [--env K=V ...] -- COMMAND...
Each run's wall time comes from time.perf_counter around fork/exec/wait4, and its
peak resident memory from wait4's rusage (ru_maxrss, KiB on Linux). A run that
exits non-zero aborts the measurement: a failing peer must not look fast.
"""
import json, os, statistics, sys, time

def main():
    args = sys.argv[1:]
    runs = int(args.pop(0))
    stdin_file, env = None, dict(os.environ)
    while args and args[0] != "--":
        opt = args.pop(0)
        if opt == "--stdin":
            stdin_file = args.pop(0)
        elif opt == "--env":
            k, v = args.pop(0).split("=", 1)
            env[k] = v
        else:
            sys.exit(f"measure.py: unknown option {opt}")
    command = args[1:]
    walls, rss = [], []
    for _ in range(runs):
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            if stdin_file:
                fd = os.open(stdin_file, os.O_RDONLY)
                os.dup2(fd, 0)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.execvpe(command[0], command, env)
        _, status, usage = os.wait4(pid, 0)
        walls.append(time.perf_counter() - start)
        rss.append(usage.ru_maxrss / 1024)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"measure.py: {' '.join(command)} failed with {os.waitstatus_to_exitcode(status)}")
    print(json.dumps({"median_s": statistics.median(walls), "min_s": min(walls), "peak_rss_mb": max(rss), "runs": runs}))

main()
