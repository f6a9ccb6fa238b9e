#!/usr/bin/python3
"""Fills a private Prosody for bench/vcard: registers N accounts on ONE unauthenticated stream
(pipelined in-band registration), then logs each in (SASL PLAIN over TLS, WORKERS streams at once)
and publishes a vCard with every field Prosody keeps plus a 1 KiB photo. Prints the JIDs, one a line.

    fill.py HOST PORT CA_FILE DOMAIN N PREFIX PASSWORD [WORKERS]
"""
import asyncio
import base64
import re
import ssl
import sys
import time
from xml.sax.saxutils import escape

HOST, PORT, CA, DOMAIN = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
N, PREFIX, PASSWORD = int(sys.argv[5]), sys.argv[6], sys.argv[7]
WORKERS = int(sys.argv[8]) if len(sys.argv) > 8 else 8
PHOTO = base64.b64encode(bytes(range(256)) * 4).decode()  # 1 KiB; Prosody does not decode images


class Stream:
    """A minimal client stream: STARTTLS, then raw XML in and substring waits."""

    def __init__(self):
        self.buf = ""

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(HOST, PORT)
        await self.header()
        await self.until("</stream:features>")
        self.send("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
        await self.until("<proceed")
        ctx = ssl.create_default_context(cafile=CA)
        await self.writer.start_tls(ctx, server_hostname=DOMAIN)
        await self.header()
        await self.until("</stream:features>")

    async def header(self):
        self.buf = ""
        self.send(f"<?xml version='1.0'?><stream:stream to='{DOMAIN}' version='1.0' "
                  "xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>")

    def send(self, xml):
        self.writer.write(xml.encode())

    async def until(self, *markers):
        """Reads until one of `markers` arrives; returns the text before it plus the marker."""
        while not any(m in self.buf for m in markers):
            data = await self.reader.read(65536)
            if not data:
                raise RuntimeError(f"stream closed while waiting for {markers}: {self.buf[-300:]}")
            self.buf += data.decode()
        marker = min((m for m in markers if m in self.buf), key=self.buf.index)
        head, _, self.buf = self.buf.partition(marker)
        return head + marker

    async def close(self):
        self.send("</stream:stream>")
        self.writer.close()


async def register_all(users):
    s = Stream()
    await s.open()
    for i, u in enumerate(users):
        s.send(f"<iq type='set' id='r{i}'><query xmlns='jabber:iq:register'><username>{u}</username>"
               f"<password>{PASSWORD}</password></query></iq>")
    await s.writer.drain()
    seen = 0
    while seen < len(users):
        data = await s.reader.read(65536)
        if not data:
            raise RuntimeError("registration stream closed")
        s.buf += data.decode()
        replies = re.findall(r"<iq[^>]*type=['\"](result|error)['\"][^>]*>", s.buf)
        if any(t == "error" for t in replies) and "conflict" not in s.buf:
            raise RuntimeError("registration failed: " + s.buf[-400:])
        seen = len(replies)
    await s.close()


def vcard(i, user):
    return (f"<vCard xmlns='vcard-temp'><FN>Bench User {i} ☃</FN><N><FAMILY>User {i}</FAMILY><GIVEN>Bench</GIVEN></N>"
            f"<NICKNAME>bench{i}</NICKNAME><BDAY>1990-01-{i % 28 + 1:02d}</BDAY><TITLE>Tester</TITLE><ROLE>Load</ROLE>"
            f"<ORG><ORGNAME>xmpp-tools</ORGNAME></ORG><EMAIL><WORK/><USERID>{user}@example.org</USERID></EMAIL>"
            f"<TEL><HOME/><NUMBER>+1 555 {i:04d}</NUMBER></TEL>"
            f"<ADR><WORK/><STREET>{i} Main St</STREET><LOCALITY>Springfield</LOCALITY><CTRY>USA</CTRY></ADR>"
            f"<URL>https://example.org/{user}</URL><NOTE>{escape('line one & two')}\nsecond line</NOTE>"
            f"<JABBERID>{user}@{DOMAIN}</JABBERID><PHOTO><TYPE>image/png</TYPE><BINVAL>{PHOTO}</BINVAL></PHOTO></vCard>")


async def publish(i, user):
    s = Stream()
    await s.open()
    token = base64.b64encode(f"\0{user}\0{PASSWORD}".encode()).decode()
    s.send(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>{token}</auth>")
    head = await s.until("<success", "</failure>")
    if "failure" in head:
        raise RuntimeError(f"auth failed for {user}")
    await s.header()
    await s.until("</stream:features>")
    s.send("<iq type='set' id='b'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>")
    await s.until("</iq>")
    s.send(f"<iq type='set' id='v'>{vcard(i, user)}</iq>")
    reply = await s.until("id='v'") + s.buf
    if "type='error'" in reply or 'type="error"' in reply:
        raise RuntimeError(f"vCard set failed for {user}: {reply[-300:]}")
    await s.close()


async def main():
    users = [f"{PREFIX}{i}" for i in range(N)]
    t0 = time.monotonic()
    await register_all(users)
    t1 = time.monotonic()
    queue = list(enumerate(users))

    async def worker():
        while queue:
            i, u = queue.pop()
            await publish(i, u)

    await asyncio.gather(*(worker() for _ in range(WORKERS)))
    t2 = time.monotonic()
    print(f"fill: registered {N} accounts on one stream in {t1 - t0:.2f} s, published {N} vCards in {t2 - t1:.2f} s",
          file=sys.stderr)
    for u in users:
        print(f"{u}@{DOMAIN}")


asyncio.run(main())
