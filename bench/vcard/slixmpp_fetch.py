#!/usr/bin/python3
"""The peer for bench/vcard: slixmpp logs in and fetches the vCard of every JID on stdin over one
connection, all requests in flight together (asyncio.gather over XEP-0054 get_vcard), then prints
how many cards came back with a nickname.

    slixmpp_fetch.py JID PASSWORD HOST PORT CA_FILE < jids
"""
import asyncio
import logging
import ssl
import sys

import slixmpp

jid, password, host, port, ca = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
targets = [line.strip() for line in sys.stdin if line.strip()]
logging.disable(logging.CRITICAL)


class Fetch(slixmpp.ClientXMPP):
    def __init__(self):
        super().__init__(jid, password)
        self.ssl_context = ssl.create_default_context(cafile=ca)  # only the private CA, as bench/login does
        self.register_plugin("xep_0054")
        self.add_event_handler("session_start", self.start)
        self.count = 0

    async def start(self, _event):
        results = await asyncio.gather(*(self["xep_0054"].get_vcard(t, cached=False, timeout=120) for t in targets),
                                       return_exceptions=True)
        self.count = sum(1 for r in results if not isinstance(r, Exception) and r["vcard_temp"]["NICKNAME"])
        self.disconnect()


client = Fetch()
client.connect((host, port))
client.process(forever=False)
print(client.count)
