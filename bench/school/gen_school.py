#!/usr/bin/python3
"""Writes a school's CSV for xmpp-register batch: CLASSES classes of PUPILS pupils and TEACHERS
teachers, with nicknames and full names (accented and CJK among them) and class rosters: a
pupil's row is in its class's group and names its class and the teachers; a teacher's row is
in "Teachers" and names every group, so teachers see everyone.

usage: gen_school.py OUT.csv CLASSES PUPILS TEACHERS [DOMAIN] [EXTRA]
EXTRA pupils (default 0) are appended to class 1, for the "one more pupil" re-run.
"""
import sys

out, classes, pupils, teachers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
domain = sys.argv[5] if len(sys.argv) > 5 else "localhost"
extra = int(sys.argv[6]) if len(sys.argv) > 6 else 0
first = ["Zoé", "Léo", "Anaïs", "Jürgen", "Søren", "美咲", "Ngọc", "Björn", "Inès", "Łukasz", "Chloé", "Émile"]
last = ["Dupont", "Müller", "Ørsted", "山田", "Nguyễn", "García", "Kowalski", "O'Brien", "Černý", "Åström"]
class_names = [f"Class {i + 1}" for i in range(classes)]
rows = ["jid,nickname,fullname,groups,contacts"]


def name(i):
    return f"{first[i % len(first)]} {last[(i // len(first)) % len(last)]} {i}"


everyone = ";".join(class_names + ["Teachers"])
for t in range(teachers):
    rows.append(f"teacher{t}@{domain},T{t},\"{name(t + 100000)}\",Teachers,\"{everyone}\"")
for c, group in enumerate(class_names):
    count = pupils + (extra if c == 0 else 0)
    for p in range(count):
        n = c * 1000 + p  # a pupil's name depends on its place only, so an added pupil changes no other row
        rows.append(f"pupil{c}-{p}@{domain},P{n},\"{name(n)}\",{group},\"{group};Teachers\"")
with open(out, "w", encoding="utf-8") as f:
    f.write("\r\n".join(rows) + "\r\n")
