#!/usr/bin/python3
"""The school's per-account rosters written by ejabberd's administrator through its HTTP API
(mod_http_api's add_rosteritem: one request per side of a pair, subscription both, nothing sent by
the accounts), beside the six stanzas per pair of a log-in per account (bench/school's "rosters").
Run by school_bench.py (XT_BENCH_ONLY=api-roster, ejabberd kinds); not a product path: it
measures whether offering one is worth it, and checks what an online account sees meanwhile.

usage: api_roster.py API_URL CA_FILE SCHOOL_CSV JOBS  (the administrator's JID and password on stdin, one line:
JID PASSWORD; the packaged api_permissions let loopback callers run only what their account may)
Prints one JSON line: pairs, requests, wall seconds, failures, and a pupil's roster as the API
reads it back (items and their subscriptions)."""
import base64, http.client, json, os, ssl, sys, threading, time, urllib.parse

url, ca_file, school, jobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
admin, secret = sys.stdin.readline().rstrip("\n").split(" ", 1)
authorization = "Basic " + base64.b64encode(f"{admin}:{secret}".encode()).decode()
parsed = urllib.parse.urlparse(url)
context = ssl.create_default_context(cafile=ca_file)
context.check_hostname = False  # the test server's certificate names localhost, reached as 127.0.0.1


def connection():
    return http.client.HTTPSConnection(parsed.hostname, parsed.port, context=context, timeout=30)


def call(conn, command, args):
    conn.request("POST", parsed.path.rstrip("/") + "/" + command, body=json.dumps(args),
                 headers={"Content-Type": "application/json", "Authorization": authorization})
    reply = conn.getresponse()
    body = reply.read()
    return reply.status, body


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from school_csv import school_rosters  # noqa: E402

rosters = school_rosters(school)
sides = [({"jid": owner}, contact) for owner, contacts in rosters.items() for contact in contacts.values()]
pairs = len(sides) // 2

failures = []
lock = threading.Lock()
group_arg = ["groups"]  # ejabberd 24.12 (API v2): a list; older: "group", a string


def args(owner, contact):
    local, host = owner["jid"].split("@")
    user, chost = contact["jid"].split("@")
    a = {"localuser": local, "localhost": host, "user": user, "host": chost, "nick": contact["fullname"], "subs": "both"}
    if group_arg[0] == "groups":
        a["groups"] = [contact["groups"]]
    else:
        a["group"] = contact["groups"]
    return a


probe = connection()
status, body = call(probe, "add_rosteritem", args(*sides[0]))
if status != 200:
    first_error = f"{status} {body[:300]!r}"
    group_arg[0] = "group"
    status, body = call(probe, "add_rosteritem", args(*sides[0]))
    if status != 200:
        print(json.dumps({"error": f"add_rosteritem: {first_error}; with group: {status} {body[:300]!r}"}))
        sys.exit(1)


def worker(part):
    conn = connection()
    for owner, contact in part:
        status, body = call(conn, "add_rosteritem", args(owner, contact))
        if status != 200 or body.strip() not in (b"0", b""):
            with lock:
                failures.append(f"{owner['jid']} -> {contact['jid']}: {status} {body[:200]!r}")


start = time.perf_counter()
threads = [threading.Thread(target=worker, args=(sides[i::jobs],)) for i in range(jobs)]
for t in threads:
    t.start()
for t in threads:
    t.join()
wall = time.perf_counter() - start
pupil = next(iter(rosters)).split("@")
status, body = call(probe, "get_roster", {"user": pupil[0], "host": pupil[1]})
roster = json.loads(body) if status == 200 else []
subs = sorted({item.get("subscription") for item in roster}) if isinstance(roster, list) else []
print(json.dumps({"pairs": pairs, "requests": len(sides), "wall": round(wall, 2), "failures": len(failures),
                  "first_failures": failures[:3], "group_argument": group_arg[0], "account": "@".join(pupil),
                  "items": len(roster) if isinstance(roster, list) else None, "subscriptions": subs}))
