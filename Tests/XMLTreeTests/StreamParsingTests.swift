import XCTest
import XMLTree

/// The stream header, top-level elements and stream close as events.
final class StreamParsingTests: XCTestCase {
    static let features =
        "<stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls>"
        + "<mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>SCRAM-SHA-1</mechanism>"
        + "<mechanism>PLAIN</mechanism></mechanisms></stream:features>"
    static let message =
        "<message to='bob@example.org' type='chat' xml:lang='de'><body>Tom &amp; Jerry &lt;3 &#x263A; &#9731;</body></message>"

    static let expectedFeatures = XMLElement(
        "features", namespace: Fixture.streams,
        children: [
            .element(
                XMLElement(
                    "starttls", namespace: "urn:ietf:params:xml:ns:xmpp-tls",
                    children: [.element(XMLElement("required", namespace: "urn:ietf:params:xml:ns:xmpp-tls"))])),
            .element(
                XMLElement(
                    "mechanisms", namespace: "urn:ietf:params:xml:ns:xmpp-sasl",
                    children: [
                        .element(
                            XMLElement(
                                "mechanism", namespace: "urn:ietf:params:xml:ns:xmpp-sasl", children: [.text("SCRAM-SHA-1")])),
                        .element(
                            XMLElement("mechanism", namespace: "urn:ietf:params:xml:ns:xmpp-sasl", children: [.text("PLAIN")])),
                    ])),
        ])
    static let expectedMessage = XMLElement(
        "message", namespace: Fixture.client,
        attributes: [
            XMLAttribute(name: "to", value: "bob@example.org"), XMLAttribute(name: "type", value: "chat"),
            XMLAttribute(name: "xml:lang", value: "de"),
        ],
        children: [.element(XMLElement("body", namespace: Fixture.client, children: [.text("Tom & Jerry <3 ☺ ☃")]))])

    static let stream = Fixture.header + "\n  " + features + "\n" + message + " </stream:stream>"
    static let expectedEvents: [XMLStreamEvent] = [
        .streamOpened(Fixture.expectedHeader), .element(expectedFeatures), .element(expectedMessage), .streamClosed,
    ]

    func testHeaderFeaturesStanzaAndClose() throws {
        let events = try XMLStreamParser().feed(Array(Self.stream.utf8))
        XCTAssertEqual(events, Self.expectedEvents)
    }

    func testHeaderIsReportedBeforeAnyStanza() throws {
        let parser = XMLStreamParser()
        XCTAssertEqual(try parser.feed(Array(Fixture.header.utf8)), [.streamOpened(Fixture.expectedHeader)])
        XCTAssertEqual(try parser.feed(Array("<presence/>".utf8)), [.element(XMLElement("presence", namespace: Fixture.client))])
        XCTAssertEqual(try parser.feed(Array("</stream:stream>".utf8)), [.streamClosed])
    }

    func testHeaderWithoutXMLDeclaration() throws {
        let events = try XMLStreamParser().feed(Array("<stream:stream xmlns:stream='\(Fixture.streams)' to='a'>".utf8))
        XCTAssertEqual(
            events,
            [.streamOpened(XMLStreamHeader(attributes: [XMLAttribute(name: "to", value: "a")], defaultNamespace: nil))])
        guard case .streamOpened(let header)? = events.first else { return XCTFail("no header") }
        XCTAssertEqual(header[attribute: "to"], "a")
        XCTAssertNil(header[attribute: "from"])
    }

    func testWhitespaceBetweenStanzasDroppedButKeptInside() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        let events = try parser.feed(Array(" \n\t <message><body> a \n b </body> </message>\n \n".utf8))
        let body = XMLElement("body", namespace: Fixture.client, children: [.text(" a \n b ")])
        XCTAssertEqual(events, [.element(XMLElement("message", namespace: Fixture.client, children: [.element(body), .text(" ")]))])
        XCTAssertEqual(try parser.feed(Array("   ".utf8)), [])
    }

    func testCDATAAndReferencesCoalesceIntoOneTextNode() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        let events = try parser.feed(Array("<body>a&lt;b<![CDATA[<c>&amp;]]>d&#65;</body>".utf8))
        XCTAssertEqual(events, [.element(XMLElement("body", namespace: Fixture.client, children: [.text("a<b<c>&amp;dA")]))])
    }

    func testAttributeReferencesAreDecoded() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        let events = try parser.feed(Array("<x a='&amp;&lt;&gt;&quot;&apos;' b='&#38;#38;' c=\"'\" d='1&#10;2&#x9;3'/>".utf8))
        let expected = XMLElement(
            "x", namespace: Fixture.client,
            attributes: [
                XMLAttribute(name: "a", value: "&<>\"'"), XMLAttribute(name: "b", value: "&#38;"),
                XMLAttribute(name: "c", value: "'"), XMLAttribute(name: "d", value: "1\n2\t3"),
            ])
        XCTAssertEqual(events, [.element(expected)])
    }

    func testPrefixedElementsAndAttributesResolve() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        let xml = "<stream:error><p:conflict xmlns:p='urn:p' p:why='x'/><text xmlns='urn:t' xml:lang='en'>hi</text></stream:error>"
        let expected = XMLElement(
            "error", namespace: Fixture.streams,
            children: [
                .element(XMLElement("conflict", namespace: "urn:p", attributes: [XMLAttribute(name: "p:why", value: "x", namespace: "urn:p")])),
                .element(XMLElement("text", namespace: "urn:t", attributes: [XMLAttribute(name: "xml:lang", value: "en")], children: [.text("hi")])),
            ])
        XCTAssertEqual(try parser.feed(Array(xml.utf8)), [.element(expected)])
    }

    func testUnprefixedStreamWithoutNamespaces() throws {
        let events = try XMLStreamParser().feed(Array("<root><a>1</a></root>".utf8))
        XCTAssertEqual(
            events,
            [
                .streamOpened(XMLStreamHeader(name: "root", prefix: nil, namespace: nil)),
                .element(XMLElement("a", children: [.text("1")])), .streamClosed,
            ])
    }

    func testFeedingNothingReturnsNothing() throws {
        let parser = XMLStreamParser()
        XCTAssertEqual(try parser.feed([UInt8]()), [])
        XCTAssertEqual(try parser.feed(Array(Fixture.header.utf8)), [.streamOpened(Fixture.expectedHeader)])
    }

    func testNonContiguousCollectionsAreAccepted() throws {
        let bytes = Array(Self.stream.utf8)
        let events = try XMLStreamParser().feed(bytes.lazy.map { $0 })
        XCTAssertEqual(events, Self.expectedEvents)
    }
}
