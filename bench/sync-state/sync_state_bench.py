#!/usr/bin/python3
"""Times `xmpp-register delete --admin JID --yes` against a sync state of N accounts: with a
JID sync does not manage the state is only read ("load"); with a managed one it is read and
written again with that account deleted ("load + save"). Each run on a fresh copy of the state
(first format and, for builds that read it, the line format); wall time (median) and peak RSS
(wait4's ru_maxrss through bench/lib/measure.py, the largest) per build, format and step.

usage: sync_state_bench.py WORK RUNS N ADMIN_ARGS(json) BUILD=BIN... [--lines BUILD...]
"""
import json, os, shutil, statistics, subprocess, sys

work, runs, n, admin_args = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
builds, lines_builds = [], set()
rest = sys.argv[5:]
if "--lines" in rest:
    lines_builds = set(rest[rest.index("--lines") + 1:])
    rest = rest[:rest.index("--lines")]
builds = [tuple(b.split("=", 1)) for b in rest]
state_dir = f"{work}/state/xmpp-tools/sync"
measure = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib", "measure.py")
steps = [("load", "nobody@localhost"), ("load + save", "user7@localhost")]


def once(program, form, jid):
    shutil.copyfile(f"{work}/state-{form}.json", f"{state_dir}/localhost.json")
    os.chmod(f"{state_dir}/localhost.json", 0o600)
    args = [program, "delete", "--admin", jid, "--yes"] + admin_args
    measured = subprocess.run([sys.executable, measure, "1", "--"] + args, capture_output=True, text=True)
    if measured.returncode != 0:
        sys.exit(f"sync_state_bench.py: {measured.stderr.strip()}")
    result = json.loads(measured.stdout)
    with open(f"{state_dir}/localhost.json", encoding="utf-8") as f:
        head = f.read(200)
    return result["median_s"], result["peak_rss_mb"], "state 2" in head


results = {}
for _ in range(runs):
    for build, program in builds:
        for form in ["first"] + (["lines"] if build in lines_builds else []):
            for step, jid in steps:
                wall, rss, written_as_lines = once(program, form, jid)
                entry = results.setdefault((build, form, step), ([], [], written_as_lines))
                entry[0].append(wall)
                entry[1].append(rss)

size = {form: os.path.getsize(f"{work}/state-{form}.json") / 1e6 for form in ("first", "lines")}
print("%-8s %-22s %-12s %10s %12s  %s" % ("build", "state read", "step", "wall s", "peak RSS MB", "state left"))
for (build, form, step), (walls, rss, lines) in results.items():
    print("%-8s %-22s %-12s %10.2f %12.1f  %s" % (build, f"{form} ({size[form]:.0f} MB)", step, statistics.median(walls), max(rss),
                                                 "lines" if lines else "first format"))
