#!/usr/bin/python3
"""Peer for bench/batch/admin: XEP-0133 add-user from plain asyncio + ssl, with the plan of
xmpp-register batch --admin: JOBS streams authenticated as the administrator (STARTTLS, SASL
PLAIN, bind), then WINDOW add-user commands in flight per stream, each an `execute` that
carries the filled-in form (one round trip; a server that answers with its form anyway gets
it submitted in a second stage). No journal, no checks: the least a client can do.

usage: raw_admin.py USERS_FILE DOMAIN HOST PORT CAFILE ADMIN_USER ADMIN_PASSWORD JOBS WINDOW
USERS_FILE has one "user,password" per line. Exit 0 when every account was created.
"""
import asyncio, base64, ssl, sys
import xml.etree.ElementTree as ET
from xmpp_stream import Stream, run_workers
from xml.sax.saxutils import escape

users_file, domain, host, port, cafile, admin, admin_password, jobs, window = sys.argv[1:10]
users = [line.rstrip("\n").split(",", 1) for line in open(users_file, encoding="utf-8") if line.strip()]
context = ssl.create_default_context(cafile=cafile)
HEADER = (f"<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' "
          f"to='{domain}' version='1.0'>").encode()
CMD = "{http://jabber.org/protocol/commands}command"
NODE = "http://jabber.org/protocol/admin#add-user"


def form(user, password, sessionid=None):
    fields = "".join(f"<field var='{n}'><value>{escape(v)}</value></field>" for n, v in
                     [("FORM_TYPE", "http://jabber.org/protocol/admin"), ("accountjid", f"{user}@{domain}"),
                      ("password", password), ("password-verify", password)])
    session = f" sessionid='{escape(sessionid)}'" if sessionid else ""
    action = "complete" if sessionid else "execute"
    return (f"<command xmlns='http://jabber.org/protocol/commands' node='{NODE}'{session} action='{action}'>"
            f"<x xmlns='jabber:x:data' type='submit'>{fields}</x></command>")


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
    await stream.next()  # features with mechanisms
    token = base64.b64encode(f"\0{admin}\0{admin_password}".encode()).decode()
    writer.write(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>{token}</auth>".encode())
    if not (await stream.next()).tag.endswith("success"):
        raise ConnectionError("authentication failed")
    writer.write(HEADER)
    stream = Stream(reader)
    await stream.next()  # features with <bind/>
    writer.write(b"<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>")
    await stream.next()
    return stream, writer


async def worker(queue, results):
    stream, writer = await open_stream()
    in_flight = {}
    while True:
        while len(in_flight) < int(window) and not queue.empty():
            index, (user, password) = queue.get_nowait()
            in_flight[f"a{index}"] = (user, password)
            writer.write(f"<iq type='set' id='a{index}' to='{domain}'>{form(user, password)}</iq>".encode())
        if not in_flight:
            break
        reply = await stream.next()
        if reply.tag != "{jabber:client}iq" or reply.get("id") not in in_flight:
            continue
        command = reply.find(CMD)
        if reply.get("type") == "result" and command is not None and command.get("status") == "executing":
            user, password = in_flight[reply.get("id")]  # the server showed its form: submit it
            writer.write(f"<iq type='set' id='{reply.get('id')}' to='{domain}'>{form(user, password, command.get('sessionid'))}</iq>".encode())
            continue
        del in_flight[reply.get("id")]
        results.append(reply.get("type") == "result" and command is not None and command.get("status") == "completed"
                       and not any(n.get("type") == "error" for n in command.findall("{http://jabber.org/protocol/commands}note")))
    writer.write(b"</stream:stream>")
    writer.close()


sys.exit(run_workers(worker, users, int(jobs)))
