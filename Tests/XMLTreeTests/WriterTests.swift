import XCTest
import XMLTree

/// Serialization: escaping, namespaces, and serialize → parse round trips.
final class WriterTests: XCTestCase {
    func testEscapingFunctions() {
        XCTAssertEqual(XMLEscaping.text("a & b < c > d \" ' \t\n\r"), "a &amp; b &lt; c &gt; d \" ' \t\n&#13;")
        XCTAssertEqual(XMLEscaping.attribute("a & b < c > d \" ' \t\n\r"), "a &amp; b &lt; c &gt; d &quot; &apos; &#9;&#10;&#13;")
        XCTAssertEqual(XMLEscaping.text("plain ünïcödé 😀"), "plain ünïcödé 😀")
        XCTAssertEqual(XMLEscaping.text("]]>"), "]]&gt;")
    }

    func testIllegalCharactersBecomeReplacementCharacter() {
        XCTAssertEqual(XMLEscaping.text("a\u{0}b\u{1}c\u{8}d\u{B}e\u{C}f\u{1F}g\u{FFFE}h\u{FFFF}i"), "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f\u{FFFD}g\u{FFFD}h\u{FFFD}i")
        XCTAssertEqual(XMLEscaping.attribute("\u{7}'"), "\u{FFFD}&apos;")
        // U+FFFD itself and other characters starting with byte 0xEF pass through.
        XCTAssertEqual(XMLEscaping.text("\u{FFFD}\u{FEFF}\u{F8FF}"), "\u{FFFD}\u{FEFF}\u{F8FF}")
    }

    func testSerializedForm() {
        var iq = XMLElement("iq", namespace: "jabber:client", attributes: ["type": "set", "id": "a'b"])
        var query = XMLElement("query", namespace: "jabber:iq:roster")
        query.append(XMLElement("item", namespace: "jabber:iq:roster", attributes: ["jid": "tom&jerry@example.org", "name": "\"T\""]))
        iq.append(query)
        XCTAssertEqual(
            iq.serialized(inheritedNamespace: "jabber:client"),
            "<iq id='a&apos;b' type='set'><query xmlns='jabber:iq:roster'>"
                + "<item jid='tom&amp;jerry@example.org' name='&quot;T&quot;'/></query></iq>")
        XCTAssertEqual(
            iq.serialized(),
            "<iq xmlns='jabber:client' id='a&apos;b' type='set'><query xmlns='jabber:iq:roster'>"
                + "<item jid='tom&amp;jerry@example.org' name='&quot;T&quot;'/></query></iq>")
    }

    func testNamespaceInheritance() {
        let child = XMLElement("body", namespace: "jabber:client", children: [.text("x")])
        let other = XMLElement("x", namespace: "urn:x", children: [.element(XMLElement("y", namespace: "urn:x"))])
        let bare = XMLElement("bare")
        let message = XMLElement("message", namespace: "jabber:client", children: [.element(child), .element(other), .element(bare)])
        XCTAssertEqual(
            message.serialized(inheritedNamespace: "jabber:client"),
            "<message><body>x</body><x xmlns='urn:x'><y/></x><bare xmlns=''/></message>")
        XCTAssertEqual(bare.serialized(), "<bare/>")
    }

    func testRoundTripThroughTheParser() throws {
        let nasty = "Tom & Jerry <tag> \"double\" 'single' ]]> &amp; ünï 😀 \t tab\nnewline\r\rreturn"
        var element = XMLElement("message", namespace: "jabber:client", attributes: ["to": nasty, "xml:lang": "en"])
        element.append(XMLElement("body", namespace: "jabber:client", children: [.text(nasty)]))
        element.append(XMLElement("x", namespace: "urn:x", attributes: [XMLAttribute(name: "p:a", value: nasty, namespace: "urn:p")]))
        element.append(text: " tail ")
        element.append(XMLElement("empty"))
        let parsed = try parseXMLDocument(element.serialized())
        XCTAssertEqual(parsed, element)
        XCTAssertEqual(parsed.child("body")?.text, nasty)
        XCTAssertEqual(parsed[attribute: "to"], nasty)
    }

    func testRoundTripReplacesControlCharacters() throws {
        let element = XMLElement("a", attributes: ["v": "x\u{1}y"], children: [.text("p\u{0}q\u{1B}[0m")])
        let parsed = try parseXMLDocument(element.serialized())
        XCTAssertEqual(parsed, XMLElement("a", attributes: ["v": "x\u{FFFD}y"], children: [.text("p\u{FFFD}q\u{FFFD}[0m")]))
    }

    func testRoundTripInsideAStream() throws {
        let stanza = XMLElement(
            "presence", namespace: "jabber:client", attributes: ["from": "ä@b/c"],
            children: [.element(XMLElement("status", namespace: "jabber:client", children: [.text("<&'\">")]))])
        let parser = XMLStreamParser()
        let text = Fixture.header + stanza.serialized(inheritedNamespace: Fixture.client)
        XCTAssertEqual(try parser.feed(Array(text.utf8)), [.streamOpened(Fixture.expectedHeader), .element(stanza)])
    }

    func testStreamHeaderOpeningTag() throws {
        let header = XMLStreamHeader(
            attributes: [XMLAttribute(name: "to", value: "example.org"), XMLAttribute(name: "version", value: "1.0")],
            defaultNamespace: "jabber:client")
        let tag = header.openingTag()
        XCTAssertEqual(
            tag,
            "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='example.org' version='1.0'>")
        XCTAssertEqual(try XMLStreamParser().feed(Array(("<?xml version='1.0'?>" + tag).utf8)), [.streamOpened(header)])
    }
}
