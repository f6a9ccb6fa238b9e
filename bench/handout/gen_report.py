#!/usr/bin/env python3
"""Write a batch report of N accounts in classes of 32, as xmpp-register batch --report writes it.

usage: gen_report.py N passwords|invites FILE
Names are accented, CJK and Arabic in turn (the shaping and font fallback a school's list
needs); passwords are 24 letters and digits as --generate-passwords makes them; invites are
xmpp: URIs with a 32-character token, as Prosody's mod_invites makes them. Mode 0600.
"""
import os, random, sys

n, kind, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rng = random.Random(38)
alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
first = ["Anna", "Zoë", "Łukasz", "Søren", "Inès", "李", "王", "سارة", "Jürgen", "Ångström", "Mei", "Ola"]
last = ["Müller", "Ñúñez", "小龙", "美玲", "أحمد", "Dvořák", "Ødegård", "Kowalski", "Çelik", "Nguyễn"]
secret = "invite,landing_page" if kind == "invites" else "password"
lines = [f"line,jid,status,error,profile,{secret},note,name,groups"]
for i in range(n):
    jid = f"pupil{i}@school.example"
    if kind == "invites":
        token = "".join(rng.choice(alphabet) for _ in range(32))
        value = f"xmpp:school.example?register;preauth={token},https://school.example/invite/{token}"
    else:
        value = "".join(rng.choice(alphabet) for _ in range(24))
    name = f"{first[i % len(first)]} {last[(i // len(first)) % len(last)]}"
    lines.append(f"{i + 2},{jid},created,,,{value},,{name},Class {i // 32 + 1}")
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
    f.write("\r\n".join(lines) + "\r\n")
