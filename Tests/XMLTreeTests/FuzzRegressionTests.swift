import XCTest
import XMLTree

/// Inputs FuzzXML found (fuzz/README.md), kept as regressions: each failed before its fix.
final class FuzzRegressionTests: XCTestCase {
    /// libxml2 hands `&` inside namespace declarations over as `&#38;`, as it does in attribute
    /// values; only attribute values were decoded, so `xmlns='urn:a&amp;b'` gave the namespace
    /// `urn:a&#38;b`, and serializing that gave XML that did not parse back.
    /// Found by FuzzXML (minimized): `<a xmlns:stream='&amp;'><stream:fr></stream:fr>`.
    func testAmpersandInNamespaceDeclarations() throws {
        let document = try parseXMLDocument("<a xmlns:stream='&amp;'><stream:fr></stream:fr></a>")
        XCTAssertEqual(document.elements.first?.namespace, "&")
        XCTAssertEqual(try parseXMLDocument(document.serialized()), document)

        let element = try parseXMLDocument("<q xmlns='urn:a&amp;b' xmlns:p='urn:c&#38;d' p:x='1&amp;2'/>")
        XCTAssertEqual(element.namespace, "urn:a&b")
        XCTAssertEqual(element.attributes, [XMLAttribute(name: "p:x", value: "1&2", namespace: "urn:c&d")])
        XCTAssertEqual(try parseXMLDocument(element.serialized()), element)
    }

    func testAmpersandInStreamHeaderNamespaces() throws {
        let parser = XMLStreamParser()
        let events = try parser.feed(Array(
            "<stream:stream xmlns='jabber:client&amp;x' xmlns:stream='http://etherx.jabber.org/streams&amp;'><m/>".utf8))
        guard events.count == 2, case .streamOpened(let header) = events[0], case .element(let m) = events[1] else {
            return XCTFail("\(events)")
        }
        XCTAssertEqual(header.namespace, "http://etherx.jabber.org/streams&")
        XCTAssertEqual(header.defaultNamespace, "jabber:client&x")
        XCTAssertEqual(m.namespace, "jabber:client&x")
    }
}
