import Foundation
import XCTest

/// Gajim's XMPP library, Debian's python3-nbxmpp (4.2), logging in as an account to publish or
/// read the vCard4 and nickname nodes the way Gajim does: its VCard4 module (which parses the
/// node into its own property classes and publishes from them) and its Nickname module. It runs
/// on a GLib main loop, headless. The private CA is not in the system store: the TLS layer is
/// told to accept an unknown CA, and the peer certificate is then verified against that CA, and
/// the run refused if it does not verify.
enum NbxmppPeer {
    static let script = #"""
    import json, logging, sys
    logging.disable(logging.CRITICAL)
    from gi.repository import GLib, Gio
    from nbxmpp.client import Client
    from nbxmpp.const import ConnectionProtocol, ConnectionType
    from nbxmpp.namespaces import Namespace
    from nbxmpp.protocol import JID
    from nbxmpp.simplexml import Node
    from nbxmpp.modules.vcard4 import VCard

    mode, jid, password, host, port, ca = sys.argv[1:7]
    args = sys.argv[7:]
    user, domain = jid.split("@", 1)
    loop = GLib.MainLoop()
    result = {"ok": False}
    # nbxmpp holds task callbacks weakly (a GUI's methods live on): keep these alive.
    held = []
    def hold(f):
        held.append(f)
        return f

    def leaves(node):
        out = []
        for child in node.getChildren():
            if child.getName() == "parameters" and not child.getChildren():
                continue  # nbxmpp writes an empty one into every property
            if child.getChildren():
                out += leaves(child)
            else:
                out.append(child.getData() or "")
        return out

    def done(**fields):
        result.update(fields)
        client.disconnect()

    def fail(what):
        def handler(*_):
            result["error"] = what + ": " + str(client.get_error())
            loop.quit()
        return handler

    client = Client()
    client.set_domain(domain)
    client.set_username(user)
    client.set_resource("nbxmpp")
    client.set_password(password)
    client.set_mechs(["PLAIN"])  # over the verified TLS, as the slixmpp peer logs in
    client.set_custom_host(host + ":" + port, ConnectionProtocol.TCP, ConnectionType.START_TLS)
    client.set_ignored_tls_errors({Gio.TlsCertificateFlags.UNKNOWN_CA})

    def on_connected(*_):
        cert, _errors = client.peer_certificate
        trusted = Gio.TlsCertificate.new_from_file(ca)
        if cert is None or cert.verify(None, trusted) != Gio.TlsCertificateFlags(0):
            result["error"] = "the server certificate does not verify against the test CA"
            client.disconnect()
            return
        if mode == "publish":
            nick, vcard4 = args[0], args[1]
            def on_vcard_set(task):
                try:
                    task.finish()
                except Exception as e:
                    return done(error="set_vcard: %r" % e)
                done(ok=True)
            def on_nick_set(task):
                try:
                    task.finish()
                except Exception as e:
                    return done(error="set_nickname: %r" % e)
                client.get_module("VCard4").set_vcard(VCard.from_node(Node(node=vcard4)), public=True, callback=hold(on_vcard_set))
            client.get_module("Nickname").set_nickname(nick, public=True, callback=hold(on_nick_set))
        else:
            whose = JID.from_string(args[0])
            out = {"nick": None, "vcard4": None}
            def on_vcard(task):
                try:
                    vcard = task.finish()
                    if vcard is not None:
                        props = {}
                        for prop in vcard.to_node().getChildren():
                            props.setdefault(prop.getName(), leaves(prop))
                        out["vcard4"] = props
                except Exception as e:
                    out["vcard4_error"] = repr(e)
                done(ok=True, **out)
            def on_nick(task):
                try:
                    for item in task.finish():
                        nick = item.getTag("nick", namespace=Namespace.NICK)
                        if nick is not None:
                            out["nick"] = nick.getData()
                except Exception as e:
                    out["nick_error"] = repr(e)
                client.get_module("VCard4").request_vcard(jid=whose, callback=hold(on_vcard))
            client.get_module("PubSub").request_items(Namespace.NICK, max_items=1, jid=whose, callback=hold(on_nick))

    client.subscribe("connected", on_connected)
    client.subscribe("disconnected", lambda *_: loop.quit())
    client.subscribe("connection-failed", fail("connection failed"))
    GLib.timeout_add_seconds(30, fail("timed out"))
    client.connect()
    loop.run()
    print(json.dumps(result))
    sys.exit(0 if result.get("ok") else 1)
    """#

    private static let peer = PythonPeer(name: "nbxmpp", probeImport: "nbxmpp.client, nbxmpp.modules.vcard4", package: "python3-nbxmpp", script: script)

    /// Skips (fails under CI=true) where python3-nbxmpp is not installed.
    static func require() throws { try peer.require() }

    /// Runs the peer as `account` (JID, password); its JSON answer.
    static func run(_ t: ToolRunner, account: (String, String), mode: String, _ args: [String]) throws -> [String: Any] {
        try peer.run(t, account: account, mode: mode, args)
    }
}
