import Foundation
import XCTest
import XMLTree

/// Test images made here (no image library needed): truecolour PNGs with stored deflate blocks.
/// A 24×16 JPEG (made once by Pillow at quality 80), as another client would publish it.
enum TestJPEG {
    static let small = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAQABgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDx+x8P9Pk/SugsvD/T5P0rvrHw/wBPk/SugsfD/T5P0r0MTnXmeRkvEO2pwFj4f6fJ+lFev2Ph/p8n6UV4tTOve3P0/B8Q/u1qf//Z")!
}

enum TestPNG {
    /// A width×height RGB PNG whose pixels depend on `seed`.
    static func rgb(width: Int, height: Int, seed: Int = 0) -> Data {
        var raw = [UInt8]()
        raw.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                raw += [UInt8((x + seed) & 0xFF), UInt8((y * 2 + seed) & 0xFF), UInt8((x * y + seed * 7) & 0xFF)]
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, raw.count - offset)
            zlib.append(offset + n == raw.count ? 1 : 0)
            zlib += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            zlib += raw[offset..<offset + n]
            offset += n
        } while offset < raw.count
        zlib += be32(adler32(raw))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return Data(png)
    }

    /// A PNG whose header declares width×height but that carries four bytes of pixels (a decompression bomb).
    static func declaring(width: Int, height: Int) -> Data {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", [0x78, 0x01, 0x01, 0x04, 0x00, 0xFB, 0xFF, 0, 0, 0, 0, 0x00, 0x04, 0x00, 0x01])
        png += chunk("IEND", [])
        return Data(png)
    }

    /// Width and height from a PNG's IHDR, or nil when `data` is not a PNG.
    static func size(_ data: Data) -> (Int, Int)? {
        let b = [UInt8](data)
        guard b.count >= 24, b[0] == 0x89, b[1] == 0x50, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        let int = { (i: Int) in Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return (int(16), int(20))
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return be32(UInt32(body.count)) + typed + be32(crc32(typed))
    }

    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// The lowercase hex SHA-1 of a file or of bytes, by `sha1sum` (an oracle outside the project).
func sha1Hex(_ data: Data) throws -> String {
    let r = try Shell.run(["/usr/bin/sha1sum"], stdin: data)
    return String(r.stdout.prefix(40))
}

/// A bare-bones XMPP client in Python (TLS, SASL PLAIN, bind) that sends raw IQs and returns the
/// replies: it sets up and checks server state independently of the tools under test.
enum RawXMPP {
    private static let script = #"""
import socket, ssl, base64, sys, xml.etree.ElementTree as ET
host, port, ca, domain, user, pw = sys.argv[1:7]
HDR = ("<?xml version='1.0'?><stream:stream to='%s' xmlns='jabber:client' "
       "xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>" % domain)
class Stream:
    def __init__(self, sock): self.sock = sock; self.reset()
    def reset(self): self.parser = ET.XMLPullParser(['start', 'end']); self.depth = 0; self.queue = []
    def send(self, text): self.sock.sendall(text.encode())
    def next(self):
        while not self.queue:
            data = self.sock.recv(65536)
            if not data: sys.exit('stream closed')
            self.parser.feed(data)
            for event, element in self.parser.read_events():
                if event == 'start': self.depth += 1
                else:
                    self.depth -= 1
                    if self.depth == 1: self.queue.append(element)
        return self.queue.pop(0)
s = Stream(socket.create_connection((host, int(port)), timeout=20))
s.send(HDR); s.next(); s.send("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"); s.next()
s.sock = ssl.create_default_context(cafile=ca).wrap_socket(s.sock, server_hostname=domain); s.reset()
s.send(HDR); s.next()
token = base64.b64encode(("\0%s\0%s" % (user, pw)).encode()).decode()
s.send("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>%s</auth>" % token)
if not s.next().tag.endswith('success'): sys.exit('auth failed')
s.reset(); s.send(HDR); s.next()
s.send("<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>"); s.next()
for n, stanza in enumerate(sys.argv[7:]):
    s.send(stanza)
    while True:
        reply = s.next()
        if reply.tag.endswith('iq') and reply.get('id') == 'raw%d' % n: break
    print(ET.tostring(reply, encoding='unicode').replace('\n', ' '))
"""#

    /// Sends each IQ (its `id` must be `raw0`, `raw1`, … in order) as `jid` and returns the replies.
    static func iqs(_ server: TestServer, jid: String, password: String, _ stanzas: [String]) throws -> [XMLElement] {
        let user = String(jid.prefix { $0 != "@" })
        let argv = ["/usr/bin/python3", "-c", script, server.host, String(server.port), server.caFile, server.domain, user, password]
        let r = try Shell.run(argv + stanzas, timeout: 60)
        guard r.status == 0 else { throw RawXMPPError.failed(r.stderr) }
        return try r.stdout.split(separator: "\n").map { try parseXMLDocument(String($0)) }
    }

    /// The `<vCard/>` of `jid` as the server returns it to `jid`.
    static func vCard(_ server: TestServer, jid: String, password: String) throws -> XMLElement {
        let reply = try iqs(server, jid: jid, password: password, ["<iq type='get' id='raw0'><vCard xmlns='vcard-temp'/></iq>"])
        return try XCTUnwrap(reply.first?.child("vCard", namespace: "vcard-temp"))
    }

    /// The `<item/>`s of one's own PEP `node`.
    static func items(_ server: TestServer, jid: String, password: String, node: String) throws -> [XMLElement] {
        let reply = try iqs(server, jid: jid, password: password, [
            "<iq type='get' id='raw0'><pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='\(node)'/></pubsub></iq>",
        ])
        return reply.first?.child("pubsub")?.child("items")?.children("item") ?? []
    }
}

enum RawXMPPError: Error {
    case failed(String)
}
