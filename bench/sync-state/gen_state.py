#!/usr/bin/python3
"""Writes a sync state of N managed accounts of DOMAIN (standing, fullname, email, a note; no
contacts), in the first format (one JSON document on one line, what sync wrote before the line
format) or the line format (a header line, then one account a line).

usage: gen_state.py PATH N DOMAIN first|lines
"""
import json, sys

path, n, domain, form = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]


def account(i):
    return {"standing": "active", "nickname": None, "fullname": f"Zoé Müller {i}", "email": f"user{i}@mail.{domain}",
            "avatar_sha256": None, "contacts": [], "note": f"created by sync on 2026-12-0{i % 9 + 1}"}


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


jids = sorted(f"user{i}@{domain}" for i in range(n))
with open(path, "w", encoding="utf-8") as f:
    if form == "first":
        f.write('{"format":"xmpp-tools sync state 1","domain":%s,"accounts":{' % compact(domain))
        for k, jid in enumerate(jids):
            f.write(("," if k else "") + compact(jid) + ":" + compact(account(int(jid[4:jid.index("@")]))))
        f.write("}}\n")
    else:
        f.write(compact({"format": "xmpp-tools sync state 2", "domain": domain}) + "\n")
        for jid in jids:
            f.write(compact({"jid": jid, **account(int(jid[4:jid.index("@")]))}) + "\n")
