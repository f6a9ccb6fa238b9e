import Foundation
import XCTest

/// Another party that sends what our tools never would: a raw client (stdlib python3: STARTTLS,
/// SASL PLAIN, bind) logs in, sends the given stanzas and a ping, prints "ready" once the server
/// has answered the ping (so it has handled them all), and stays online until stopped.
enum RawStanzaClient {
    /// Logs in: STARTTLS, SASL PLAIN and bind, leaving the stream `s` ready; the script before
    /// it sets host, port, ca, jid and password.
    static let loginPrelude = #"""
    import base64, re, socket, ssl, sys
    user, domain = jid.split("@")
    def until(sock, pattern, buf=""):
        while not re.search(pattern, buf, re.S):
            data = sock.recv(65536).decode(errors="replace")
            if not data:
                sys.exit("closed: " + buf)
            buf += data
        return buf
    header = ("<?xml version='1.0'?><stream:stream to='%s' xmlns='jabber:client' "
              "xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>" % domain)
    raw = socket.create_connection((host, int(port)), timeout=10)
    raw.sendall(header.encode()); until(raw, "</stream:features>")
    raw.sendall(b"<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"); until(raw, "<proceed")
    s = ssl.create_default_context(cafile=ca).wrap_socket(raw, server_hostname=domain)
    s.sendall(header.encode()); until(s, "</stream:features>")
    token = base64.b64encode(("\0%s\0%s" % (user, password)).encode()).decode()
    s.sendall(("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>%s</auth>" % token).encode())
    until(s, "<success")
    s.sendall(header.encode()); until(s, "</stream:features>")
    s.sendall(b"<iq type='set' id='b1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>")
    until(s, "id=['\"]b1['\"]")
    """#

    static let script = #"""
    import sys
    host, port, ca, jid, password = sys.argv[1:6]
    stanzas = sys.argv[6:]
    """# + "\n" + loginPrelude + "\n" + #"""
    for stanza in stanzas:
        s.sendall(stanza.encode())
    s.sendall(("<iq type='get' id='raw-ping' to='%s'><ping xmlns='urn:xmpp:ping'/></iq>" % domain).encode())
    until(s, "id=['\"]raw-ping['\"]")
    print("ready", flush=True)
    s.settimeout(None)
    try:
        while s.recv(65536):
            pass
    except Exception:
        pass
    """#

    /// Logs in as `account` (JID, password) on the server of `serverArgs`, sends `stanzas`,
    /// and returns once the server has handled them; stop the result to go offline.
    static func start(serverArgs args: [String], environment: [String: String], account: (String, String),
                      sending stanzas: [String]) throws -> Watcher {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("no /usr/bin/python3") }
        let hostPort = args[args.firstIndex(of: "--server")! + 1]
        let ca = args[args.firstIndex(of: "--ca-file")! + 1]
        let colon = hostPort.lastIndex(of: ":")!
        let client = try Watcher(argv: ["/usr/bin/python3", "-c", script, String(hostPort[..<colon]),
                                        String(hostPort[hostPort.index(after: colon)...]), ca, account.0, account.1] + stanzas,
                                 environment: environment)
        try client.waitForOutput(containing: "ready", timeout: 30)
        return client
    }

    /// Text with a line break, a C1 control (CSI) and a bidi override, as XML character references.
    /// An escape (U+001B) cannot travel in XML 1.0: both servers close the stream on `&#27;`. A
    /// carriage return reached the tools as a line feed (Prosody), so none is sent.
    static let hostileXML = "line one&#10;forged: line&#155;31m&#8238;txet"
    /// `hostileXML` as the characters.
    static let hostile = "line one\nforged: line\u{9B}31m\u{202E}txet"
    /// `hostile` as text output shows it.
    static let hostileShown = #"line one\nforged: lineU+009B31mU+202Etxet"#
}
