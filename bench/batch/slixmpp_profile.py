#!/usr/bin/python3
"""Peer for bench/batch/profile: the classic provisioning flow in slixmpp, per account:
register (XEP-0077) on one connection, then log in on a second and set the profile: vCard
(XEP-0054: NICKNAME, FN, PHOTO) and the PEP avatar (XEP-0084 data and metadata). JOBS accounts
at once in one asyncio loop, one shared TLS context. The image is resized to 100x100 PNG once,
with Pillow, before the clock matters to anyone (it is the same for every account).

usage: slixmpp_profile.py USERS_FILE DOMAIN HOST PORT CAFILE JOBS IMAGE
USERS_FILE has one "user,password,nickname,fullname" per line. Exit 0 when every account was
created with its profile.
"""
import asyncio, hashlib, io, logging, ssl, sys
import slixmpp
from slixmpp.exceptions import IqError, IqTimeout
from PIL import Image
from slixmpp_register import Registrar, run

users_file, domain, host, port, cafile, jobs, image = sys.argv[1:8]
users = [line.rstrip("\n").split(",", 3) for line in open(users_file, encoding="utf-8") if line.strip()]
context = ssl.create_default_context(cafile=cafile)
buffer = io.BytesIO()
Image.open(image).convert("RGBA").resize((100, 100), Image.LANCZOS).save(buffer, "PNG")
png = buffer.getvalue()
png_id = hashlib.sha1(png).hexdigest()


class ProfileSetter(slixmpp.ClientXMPP):
    def __init__(self, user, password, nickname, fullname):
        super().__init__(f"{user}@{domain}", password)
        self.ssl_context = context
        self.nickname, self.fullname = nickname, fullname
        for plugin in ("xep_0054", "xep_0084"):
            self.register_plugin(plugin)
        self.add_event_handler("session_start", self.on_start)
        self.add_event_handler("failed_auth", lambda _: self.disconnect())
        self.ok = False

    async def on_start(self, _event):
        try:
            vcard = self["xep_0054"].make_vcard()
            vcard["NICKNAME"] = self.nickname
            vcard["FN"] = self.fullname
            vcard["PHOTO"]["TYPE"] = "image/png"
            vcard["PHOTO"]["BINVAL"] = png
            await self["xep_0054"].publish_vcard(vcard, timeout=30)
            await self["xep_0084"].publish_avatar(png, timeout=30)
            await self["xep_0084"].publish_avatar_metadata(
                [{"id": png_id, "type": "image/png", "bytes": str(len(png)), "width": "100", "height": "100"}], timeout=30)
            self.ok = True
        except (IqError, IqTimeout) as e:
            logging.error("%s: %s", self.boundjid.bare, e)
        self.disconnect()


async def provision(user, password, nickname, fullname, gate):
    async with gate:
        return (await run(Registrar(f"{user}@{domain}", password, context), host, port)
                and await run(ProfileSetter(user, password, nickname, fullname), host, port))


async def main():
    gate = asyncio.Semaphore(int(jobs))
    return sum(await asyncio.gather(*(provision(*u, gate) for u in users)))


logging.basicConfig(level=logging.ERROR)
logging.getLogger("asyncio").setLevel(logging.CRITICAL)
done = asyncio.get_event_loop().run_until_complete(main())
print(done)
sys.exit(0 if done == len(users) else 1)
