import XCTest
import XMLTree

/// Standalone documents, and restarting the stream after STARTTLS.
final class DocumentAndResetTests: XCTestCase {
    func testParseDocument() throws {
        let vcard = """
            <?xml version="1.0" encoding="UTF-8"?>
            <vCard xmlns='vcard-temp'>
              <FN>Peter Saint-Andre</FN>
              <N><FAMILY>Saint-Andre</FAMILY><GIVEN>Peter</GIVEN></N>
            </vCard>
            """
        let element = try parseXMLDocument(vcard)
        XCTAssertEqual(element.name, "vCard")
        XCTAssertEqual(element.namespace, "vcard-temp")
        XCTAssertEqual(element.child("FN")?.text, "Peter Saint-Andre")
        XCTAssertEqual(element.child("N")?.child("GIVEN", namespace: "vcard-temp")?.text, "Peter")
        XCTAssertEqual(element.children.first, .text("\n  "))
        XCTAssertEqual(element.elements.count, 2)
    }

    func testParseDocumentFromBytes() throws {
        XCTAssertEqual(try parseXMLDocument(bytes: Array("<a>é</a>".utf8)), XMLElement("a", children: [.text("é")]))
    }

    func testDocumentSizeLimitCoversTheWholeInput() {
        XCTAssertEqual(documentError("<a>12345</a>", limits: XMLLimits(maxStanzaBytes: 11)), .stanzaTooLarge(limit: 11))
        XCTAssertNil(documentError("<a>12345</a>", limits: XMLLimits(maxStanzaBytes: 12)))
    }

    func testResetAfterStartTLS() throws {
        let parser = XMLStreamParser()
        let first = Fixture.header
            + "<stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/></stream:features>"
            + "<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"
        let events = try parser.feed(Array(first.utf8))
        XCTAssertEqual(events.count, 3)
        XCTAssertEqual(events.last, .element(XMLElement("proceed", namespace: "urn:ietf:params:xml:ns:xmpp-tls")))

        // Without a reset a second header (and XML declaration) is malformed.
        let copy = XMLStreamParser()
        _ = try copy.feed(Array(first.utf8))
        XCTAssertThrowsError(try copy.feed(Array(Fixture.header.utf8))) { XCTAssertNotNil(malformedMessage($0 as? XMLTreeError)) }

        parser.reset()
        let second = Fixture.header(id: "s2")
            + "<stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism>"
            + "</mechanisms></stream:features>"
        let after = try parser.feed(Array(second.utf8))
        var expectedHeader = Fixture.expectedHeader
        expectedHeader[attribute: "id"] = "s2"
        XCTAssertEqual(after.first, .streamOpened(expectedHeader))
        XCTAssertEqual(after.count, 2)
    }

    func testResetDiscardsAPartialStanzaAndSizeAccounting() throws {
        let parser = XMLStreamParser(limits: XMLLimits(maxStanzaBytes: 300))
        _ = try parser.feed(Array(Fixture.header.utf8))
        _ = try parser.feed(Array(("<message><body>" + String(repeating: "x", count: 200)).utf8))
        parser.reset()
        XCTAssertEqual(try parser.feed(Array((Fixture.header + "<presence/>").utf8)).count, 2)
    }

    func testManyParsersCanBeCreatedAndFreed() throws {
        for _ in 0..<2000 {
            let parser = XMLStreamParser()
            _ = try parser.feed(Array((Fixture.header + "<a>").utf8))
            parser.reset()
        }
    }
}
