import XCTest
import XMLTree

/// Events must not depend on how the bytes were split into reads.
final class ChunkingTests: XCTestCase {
    /// A stream with multi-byte UTF-8 in names, attributes and text, CDATA, references,
    /// `>`, `/>` and `?>` inside quoted values, a text run longer than libxml2's 300-byte
    /// lookahead, and a close.
    static let stream: String = {
        let long = String(repeating: "äöü€𝄞 ", count: 80)
        return Fixture.header
            + "<message to='jürgen@exämple.org' id='ü1'><body>Grüße 😀 &amp; 日本語<![CDATA[ <ü> ]]><![CDATA[]]]></body>"
            + "<x a='>' b=\"/>'?>\"/>"
            + "<thread>\(long)</thread></message>\r\n"
            + "<iq type='result' id='r'><query xmlns='jabber:iq:roster' ver='7'><item jid='a@b' name='Ärger'>"
            + "<group>Fründe</group></item></query></iq>"
            + "</stream:stream>"
    }()

    func testOneChunkBaseline() throws {
        let events = try XMLStreamParser().feed(Array(Self.stream.utf8))
        XCTAssertEqual(events.count, 4)
        guard case .element(let message) = events[1] else { return XCTFail("no message") }
        XCTAssertEqual(message[attribute: "to"], "jürgen@exämple.org")
        XCTAssertEqual(message.child("body")?.text, "Grüße 😀 & 日本語 <ü> ]")
        XCTAssertEqual(message.child("x")?.attributes, [XMLAttribute(name: "a", value: ">"), XMLAttribute(name: "b", value: "/>'?>")])
        XCTAssertEqual(message.child("thread")?.text, String(repeating: "äöü€𝄞 ", count: 80))
        XCTAssertEqual(events.last, .streamClosed)
    }

    func testSplitAtEveryByteBoundaryGivesIdenticalEvents() throws {
        let bytes = Array(Self.stream.utf8)
        let expected = try XMLStreamParser().feed(bytes)
        for cut in 1..<bytes.count {
            let events = try feedAll(XMLStreamParser(), [Array(bytes[..<cut]), Array(bytes[cut...])])
            XCTAssertEqual(events, expected, "split at byte \(cut)")
            if events != expected { break }
        }
    }

    func testOneByteAtATimeGivesIdenticalEvents() throws {
        let bytes = Array(Self.stream.utf8)
        let expected = try XMLStreamParser().feed(bytes)
        let parser = XMLStreamParser()
        var events: [XMLStreamEvent] = []
        for byte in bytes {
            events += try parser.feed([byte])
        }
        XCTAssertEqual(events, expected)
    }

    func testEachStanzaIsReportedAsSoonAsItsLastByteArrives() throws {
        let parser = XMLStreamParser()
        let header = Array(Fixture.header.utf8)
        for (index, byte) in header.enumerated() {
            let events = try parser.feed([byte])
            XCTAssertEqual(events.isEmpty, index != header.count - 1, "header byte \(index)")
        }
        let stanza = Array("<presence><show>away</show></presence>".utf8)
        for (index, byte) in stanza.enumerated() {
            let events = try parser.feed([byte])
            XCTAssertEqual(events.isEmpty, index != stanza.count - 1, "stanza byte \(index)")
        }
    }

    func testMultiByteCharacterSplitAcrossChunks() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        let emoji = Array("😀".utf8)
        XCTAssertEqual(emoji.count, 4)
        var events = try parser.feed(Array("<body a='".utf8) + emoji[0..<1])
        events += try parser.feed(Array(emoji[1..<3]))
        events += try parser.feed(Array(emoji[3...]) + Array("'>x".utf8) + emoji[0..<2])
        events += try parser.feed(Array(emoji[2...]) + Array("</body>".utf8))
        XCTAssertEqual(
            events,
            [.element(XMLElement("body", namespace: Fixture.client, attributes: ["a": "😀"], children: [.text("x😀")]))])
    }

    func testRandomChunkSizesGiveIdenticalEvents() throws {
        let bytes = Array(Self.stream.utf8)
        let expected = try XMLStreamParser().feed(bytes)
        var generator = SplitMix(seed: 42)
        for _ in 0..<50 {
            var chunks: [[UInt8]] = []
            var offset = 0
            while offset < bytes.count {
                let size = min(bytes.count - offset, Int(generator.next() % 40) + 1)
                chunks.append(Array(bytes[offset..<offset + size]))
                offset += size
            }
            XCTAssertEqual(try feedAll(XMLStreamParser(), chunks), expected)
        }
    }
}

/// A tiny deterministic generator so failures reproduce.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
