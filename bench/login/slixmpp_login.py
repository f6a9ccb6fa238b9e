#!/usr/bin/python3
"""Peer for bench/login: slixmpp logs in (SCRAM over STARTTLS), binds, and logs out."""
import asyncio, logging, ssl, sys
import slixmpp

jid, password, host, port, cafile = sys.argv[1:6]

class Client(slixmpp.ClientXMPP):
    def __init__(self):
        super().__init__(jid, password)
        self.ssl_context = ssl.create_default_context(cafile=cafile)
        self.add_event_handler("session_start", self.start)
        self.add_event_handler("failed_auth", lambda *_: sys.exit(3))

    async def start(self, _):
        self.disconnect()

logging.basicConfig(level=logging.ERROR)
c = Client()
c.connect((host, int(port)))
c.loop.run_until_complete(c.disconnected)
