#!/usr/bin/env python3
"""Formatting for the benchmark scripts.

report.py row NAME JSON      one aligned line: name, median ms, peak RSS MB
report.py ratio A_JSON B_JSON   B's median over A's, as "N.Nx"
"""
import json, sys

def main():
    verb = sys.argv[1]
    if verb == "row":
        name, d = sys.argv[2], json.loads(sys.argv[3])
        print("%-44s %8.1f ms %7.1f MB" % (name, d["median_s"] * 1000, d["peak_rss_mb"]))
    elif verb == "ratio":
        a, b = json.loads(sys.argv[2]), json.loads(sys.argv[3])
        print("%.1fx" % (b["median_s"] / a["median_s"]))
    else:
        sys.exit("report.py: unknown verb " + verb)

main()
