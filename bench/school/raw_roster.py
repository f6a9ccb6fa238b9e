#!/usr/bin/python3
"""Peer for bench/school: the school's class rosters from plain asyncio + ssl with the fewest
stanzas a client can send, knowing the rosters start empty: per account, one log-in (STARTTLS,
SASL PLAIN, bind) for each of two passes, JOBS accounts at once.
  pass 1: a roster set per contact (name, group), then a `subscribe` to each, one ping at the end;
  pass 2 (after every pass 1): a `subscribed` to each contact, approving its waiting request.
Three stanzas per account and contact (six per pair), nothing read back: the floor a tool that
also checks what is there can be held against. No pre-approval (RFC 6121 §3.4): Prosody stores
it but leaves the approving side at `none` with the request waiting (mod_presence, 13.0.1).

usage: raw_roster.py SCHOOL_CSV REPORT_CSV DOMAIN HOST PORT CAFILE JOBS
REPORT_CSV is xmpp-register's report (jid,...,password). Prints the time of each pass.
"""
import asyncio, base64, csv, ssl, sys, time
from xml.sax.saxutils import escape, quoteattr
sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/batch")
from xmpp_stream import Stream

school, report, domain, host, port, cafile, jobs = sys.argv[1:8]
context = ssl.create_default_context(cafile=cafile)
HEADER = (f"<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' "
          f"to='{domain}' version='1.0'>").encode()

with open(report, encoding="utf-8-sig", newline="") as f:
    passwords = {r["jid"]: r["password"] for r in csv.DictReader(f)}
with open(school, encoding="utf-8-sig", newline="") as f:
    rows = list(csv.DictReader(f))
members, names, groups_of = {}, {}, {}
for r in rows:
    groups_of[r["jid"]] = [g for g in r["groups"].split(";") if g]
    names[r["jid"]] = r["fullname"] or r["nickname"]
    for g in groups_of[r["jid"]]:
        members.setdefault(g, []).append(r["jid"])
contacts = {r["jid"]: [] for r in rows}
for r in rows:
    for g in r["contacts"].split(";"):
        for other in members.get(g, []):
            if other != r["jid"]:
                for a, b in ((r["jid"], other), (other, r["jid"])):
                    if b not in contacts[a]:
                        contacts[a].append(b)


async def login(user, password):
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(HEADER)
    stream = Stream(reader)
    await stream.next()
    writer.write(b"<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
    await stream.next()
    await writer.start_tls(context, server_hostname=domain)
    writer.write(HEADER)
    stream = Stream(reader)
    await stream.next()
    token = base64.b64encode(f"\0{user}\0{password}".encode()).decode()
    writer.write(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>{token}</auth>".encode())
    if not (await stream.next()).tag.endswith("success"):
        raise ConnectionError(f"authentication failed for {user}")
    writer.write(HEADER)
    stream = Stream(reader)
    await stream.next()
    writer.write(b"<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>")
    await stream.next()
    return stream, writer


async def account(jid, first):
    stream, writer = await login(jid.split("@")[0], passwords[jid])
    out = []
    for i, c in enumerate(contacts[jid]):
        if first:
            g = "".join(f"<group>{escape(x)}</group>" for x in groups_of[c])
            out.append(f"<iq type='set' id='s{i}'><query xmlns='jabber:iq:roster'><item jid={quoteattr(c)} "
                       f"name={quoteattr(names[c])}>{g}</item></query></iq>")
            out.append(f"<presence to={quoteattr(c)} type='subscribe'/>")
        else:
            out.append(f"<presence to={quoteattr(c)} type='subscribed'/>")
    out.append(f"<iq type='get' id='end' to='{domain}'><ping xmlns='urn:xmpp:ping'/></iq>")
    writer.write("".join(out).encode())
    while True:  # the server handles a stream's stanzas in order: its answer to the ping comes last
        e = await stream.next()
        if e.tag == "{jabber:client}iq" and e.get("id") == "end":
            break
    writer.write(b"</stream:stream>")
    writer.close()


async def run_pass(first):
    queue = asyncio.Queue()
    for jid in contacts:
        queue.put_nowait(jid)

    async def worker():
        while not queue.empty():
            await account(queue.get_nowait(), first)
    await asyncio.gather(*(worker() for _ in range(int(jobs))))

start = time.perf_counter()
asyncio.run(run_pass(True))
middle = time.perf_counter()
asyncio.run(run_pass(False))
end = time.perf_counter()
pairs = sum(len(v) for v in contacts.values()) // 2
print(f"{len(contacts)} accounts, {pairs} pairs, {pairs * 6} stanzas: pass 1 {middle - start:.1f} s, pass 2 {end - middle:.1f} s")
