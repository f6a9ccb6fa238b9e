#!/usr/bin/python3
"""Writes a batch CSV of ROWS accounts: username,password,fullname,groups (the issue 40 shape):
usernames user0000000 ..., a 16-character password, an accented full name and one of 40 groups.
The rows depend on their number only, so the same ROWS always gives the same file.

usage: gen_rows.py OUT.csv ROWS
"""
import sys

out, rows = sys.argv[1], int(sys.argv[2])
first = ["Zoé", "Léo", "Anaïs", "Jürgen", "Søren", "Ngọc", "Björn", "Inès", "Łukasz", "Chloé", "Émile", "Ana"]
last = ["Dupont", "Müller", "Ørsted", "Nguyễn", "García", "Kowalski", "O'Brien", "Černý", "Åström", "Smith"]
with open(out, "w", encoding="utf-8", newline="") as f:
    f.write("username,password,fullname,groups\r\n")
    chunk = []
    for i in range(rows):
        name = f"{first[i % len(first)]} {last[(i // len(first)) % len(last)]}"
        chunk.append(f"user{i:07d},pw{(i * 7919) % 100000000:08d}Xq{i % 97:02d}zz,{name},Group {i % 40}\r\n")
        if len(chunk) == 10000:
            f.write("".join(chunk))
            chunk = []
    f.write("".join(chunk))
