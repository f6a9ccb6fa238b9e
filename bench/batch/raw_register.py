#!/usr/bin/python3
"""Peer for bench/batch: in-band registration from plain asyncio + ssl, with exactly the
strategy of xmpp-register batch: JOBS streams, each secured by STARTTLS once, the form fetched
once, then WINDOW registrations in flight per stream. It shows what the same protocol plan
costs in Python (client CPU), on the same server.

usage: raw_register.py USERS_FILE DOMAIN HOST PORT CAFILE JOBS WINDOW
USERS_FILE has one "user,password" per line. Exit 0 when every account was created.
"""
import asyncio, ssl, sys
from xmpp_stream import Stream, run_workers
from xml.sax.saxutils import escape

users_file, domain, host, port, cafile, jobs, window = sys.argv[1:8]
users = [line.rstrip("\n").split(",", 1) for line in open(users_file, encoding="utf-8") if line.strip()]
context = ssl.create_default_context(cafile=cafile)
HEADER = (f"<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' "
          f"to='{domain}' version='1.0'>").encode()


async def open_stream():
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(HEADER)
    stream = Stream(reader)
    await stream.next()  # features with <starttls/>
    writer.write(b"<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
    await stream.next()  # <proceed/>
    await writer.start_tls(context, server_hostname=domain)
    writer.write(HEADER)
    stream = Stream(reader)
    await stream.next()  # features after TLS
    writer.write(b"<iq type='get' id='form'><query xmlns='jabber:iq:register'/></iq>")
    await stream.next()  # the form (Prosody also takes the plain username/password fields)
    return stream, writer


async def worker(queue, results):
    stream, writer = await open_stream()
    in_flight = 0
    while True:
        while in_flight < int(window) and not queue.empty():
            index, (user, password) = queue.get_nowait()
            writer.write((f"<iq type='set' id='r{index}'><query xmlns='jabber:iq:register'><username>{escape(user)}</username>"
                          f"<password>{escape(password)}</password></query></iq>").encode())
            in_flight += 1
        if in_flight == 0:
            break
        reply = await stream.next()
        in_flight -= 1
        results.append(reply.get("type") == "result")
    writer.write(b"</stream:stream>")
    writer.close()


sys.exit(run_workers(worker, users, int(jobs)))
