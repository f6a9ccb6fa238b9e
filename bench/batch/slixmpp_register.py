#!/usr/bin/python3
"""Peer for bench/batch: in-band registration (XEP-0077) with slixmpp, the way a slixmpp
script does it: one connection per account (connect, STARTTLS, fetch the form, register,
disconnect), JOBS connections at once in one asyncio loop, one shared TLS context.

usage: slixmpp_register.py USERS_FILE DOMAIN HOST PORT CAFILE JOBS
USERS_FILE has one "user,password" per line. Exit 0 when every account was created.
"""
import asyncio, logging, ssl, sys
import slixmpp
from slixmpp.exceptions import IqError, IqTimeout


class Registrar(slixmpp.ClientXMPP):
    """Registers its JID's account with its password on connect, then disconnects; `ok` tells."""

    def __init__(self, jid, password, context):
        super().__init__(jid, password)
        self.ssl_context = context
        # slixmpp 1.8 queues IQs until session start; registration happens before it.
        self._always_send_everything = True
        self.register_plugin("xep_0077")
        self.add_event_handler("register", self.on_register)
        self.ok = False

    async def on_register(self, _form):
        iq = self.Iq()
        iq["type"] = "set"
        iq["register"]["username"] = self.boundjid.user
        iq["register"]["password"] = self.password
        try:
            await iq.send(timeout=30)
            self.ok = True
        except (IqError, IqTimeout) as e:
            logging.error("%s: %s", self.boundjid.bare, e)
        self.disconnect()


async def run(client, host, port):
    """Connects `client` and waits until it has disconnected; its `ok`."""
    client.connect((host, int(port)))
    await client.disconnected
    return client.ok


if __name__ == "__main__":
    users_file, domain, host, port, cafile, jobs = sys.argv[1:7]
    users = [line.rstrip("\n").split(",", 1) for line in open(users_file, encoding="utf-8") if line.strip()]
    context = ssl.create_default_context(cafile=cafile)

    async def register(user, password, gate):
        async with gate:
            return await run(Registrar(f"{user}@{domain}", password, context), host, port)

    async def main():
        gate = asyncio.Semaphore(int(jobs))
        return sum(await asyncio.gather(*(register(u, p, gate) for u, p in users)))

    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # pending-task noise at exit
    created = asyncio.get_event_loop().run_until_complete(main())
    print(created)
    sys.exit(0 if created == len(users) else 1)
