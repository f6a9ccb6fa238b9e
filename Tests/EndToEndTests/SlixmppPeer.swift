import Foundation
import XCTest

/// A client library no one here wrote: Debian's python3-slixmpp, logging in as an account to
/// publish or read profile nodes. Its XEP-0172 plugin publishes the nickname; Debian's 1.8.3 has
/// no XEP-0292 plugin, so vCard4 goes through its XEP-0060 plugin with the RFC 6351 payload.
enum SlixmppPeer {
    static let script = #"""
    import asyncio, json, logging, sys
    logging.disable(logging.CRITICAL)
    import slixmpp
    from slixmpp.xmlstream import ET
    mode, jid, password, host, port, ca = sys.argv[1:7]
    args = sys.argv[7:]
    V4 = "urn:ietf:params:xml:ns:vcard-4.0"
    NICK = "http://jabber.org/protocol/nick"

    class Peer(slixmpp.ClientXMPP):
        def __init__(self):
            # PLAIN over the verified TLS: slixmpp 1.8.3 picks SCRAM-*-PLUS with tls-unique, which TLS 1.3
            # does not define, and Prosody 13 and ejabberd 24.12 (which offer -PLUS) refuse it; its plain
            # SCRAM then sends the gs2 flag "y", a downgrade to a server offering -PLUS (RFC 5802 §6).
            super().__init__(jid, password, sasl_mech="PLAIN")
            self.ca_certs = ca
            self.result = {"ok": False}
            for p in ["xep_0030", "xep_0060", "xep_0163", "xep_0172"]:
                self.register_plugin(p)
            self.add_event_handler("session_start", self.start)
            self.add_event_handler("failed_auth", lambda e: self.disconnect())

        async def start(self, event):
            try:
                if mode == "publish":
                    nick, vcard4 = args[0], args[1]
                    await self["xep_0172"].publish_nick(nick)
                    await self["xep_0060"].publish(None, "urn:xmpp:vcard4", id="current", payload=ET.fromstring(vcard4))
                    self.result = {"ok": True}
                else:
                    whose = args[0]
                    out = {"ok": True, "nick": None, "vcard4": None}
                    try:
                        r = await self["xep_0060"].get_items(whose, NICK, max_items=1)
                        for item in r["pubsub"]["items"]:
                            out["nick"] = item["payload"].text
                    except slixmpp.exceptions.IqError as e:
                        out["nick_error"] = e.iq["error"]["condition"]
                    try:
                        r = await self["xep_0060"].get_items(whose, "urn:xmpp:vcard4", max_items=1)
                        for item in r["pubsub"]["items"]:
                            v = item["payload"]
                            props = {}
                            for child in v:
                                name = child.tag.split("}")[1]
                                texts = [t.text or "" for t in child.iter() if t is not child and len(list(t)) == 0]
                                props.setdefault(name, texts)
                            out["vcard4"] = props
                    except slixmpp.exceptions.IqError as e:
                        out["vcard4_error"] = e.iq["error"]["condition"]
                    self.result = out
            finally:
                self.disconnect()

    peer = Peer()
    peer.connect((host, int(port)))
    peer.loop.run_until_complete(asyncio.wait_for(peer.disconnected, 30))
    print(json.dumps(peer.result))
    sys.exit(0 if peer.result.get("ok") else 1)
    """#

    private static let peer = PythonPeer(name: "slixmpp", probeImport: "slixmpp", package: "python3-slixmpp", script: script)

    /// Skips (fails under CI=true) where python3-slixmpp is not installed.
    static func require() throws { try peer.require() }

    /// Runs the peer as `account` (JID, password); its JSON answer.
    static func run(_ t: ToolRunner, account: (String, String), mode: String, _ args: [String]) throws -> [String: Any] {
        try peer.run(t, account: account, mode: mode, args)
    }
}
