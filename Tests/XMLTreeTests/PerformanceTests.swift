import XCTest
import XMLTree

/// Large stanzas must parse and serialize in linear time.
final class PerformanceTests: XCTestCase {
    /// A roster result with `count` items, about 100 bytes each.
    static func roster(items count: Int) -> XMLElement {
        var query = XMLElement("query", namespace: "jabber:iq:roster", attributes: ["ver": "42"])
        for index in 0..<count {
            var item = XMLElement(
                "item", namespace: "jabber:iq:roster",
                attributes: ["jid": "contact\(index)@example.org", "name": "Contact Nümber \(index)", "subscription": "both"])
            item.append(XMLElement("group", namespace: "jabber:iq:roster", children: [.text("Friends & Family")]))
            query.append(item)
        }
        return XMLElement("iq", namespace: "jabber:client", attributes: ["type": "result", "id": "r1"], children: [.element(query)])
    }

    func testLargeRosterStanzaInChunks() throws {
        let roster = Self.roster(items: 2000)
        let bytes = Array(roster.serialized(inheritedNamespace: Fixture.client).utf8)
        XCTAssertGreaterThan(bytes.count, 200_000)
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        let start = ContinuousClock.now
        var events: [XMLStreamEvent] = []
        var offset = 0
        while offset < bytes.count {  // 4 KiB reads, as from a TLS socket
            let end = min(bytes.count, offset + 4096)
            events += try parser.feed(bytes[offset..<end])
            offset = end
        }
        let elapsed = ContinuousClock.now - start
        XCTAssertEqual(events, [.element(roster)])
        print("parsed \(bytes.count)-byte roster stanza in \(elapsed)")
        XCTAssertLessThan(elapsed, .seconds(15), "quadratic behaviour is back (was 33 s before the fix)")
    }

    func testLargeRosterSerializes() {
        let roster = Self.roster(items: 2000)
        let start = ContinuousClock.now
        let text = roster.serialized()
        let elapsed = ContinuousClock.now - start
        print("serialized \(text.utf8.count)-byte roster stanza in \(elapsed)")
        XCTAssertLessThan(elapsed, .seconds(15), "quadratic behaviour is back (was 33 s before the fix)")
    }

    func testLargeTextNodeByteByByteIsLinear() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        let text = String(repeating: "0123456789abcdeü ", count: 6000)
        let bytes = Array("<message><body>\(text)</body></message>".utf8)
        let start = ContinuousClock.now
        var events: [XMLStreamEvent] = []
        for byte in bytes {
            events += try parser.feed(CollectionOfOne(byte))
        }
        let elapsed = ContinuousClock.now - start
        print("parsed \(bytes.count) bytes fed one at a time in \(elapsed)")
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first.flatMap { if case .element(let e) = $0 { e.child("body")?.text } else { nil } }, text)
        XCTAssertLessThan(elapsed, .seconds(15), "quadratic behaviour is back")
    }
}
