import XCTest
import XMLTree

/// The `XMLElement` accessors and mutators.
final class ElementTests: XCTestCase {
    static let query = XMLElement(
        "query", namespace: "jabber:iq:roster",
        children: [
            .text("a"),
            .element(XMLElement("item", namespace: "jabber:iq:roster", attributes: ["jid": "1@x"])),
            .text("b"),
            .element(XMLElement("item", namespace: "urn:other", attributes: ["jid": "2@x"])),
            .element(XMLElement("item", namespace: "jabber:iq:roster", attributes: ["jid": "3@x"])),
            .element(XMLElement("group", namespace: "jabber:iq:roster")),
        ])

    func testDictionaryAttributesAreSortedByName() {
        let element = XMLElement("iq", attributes: ["type": "get", "id": "1", "to": "x"])
        XCTAssertEqual(element.attributes.map(\.name), ["id", "to", "type"])
    }

    func testAttributeSubscript() {
        var element = XMLElement("iq", attributes: [XMLAttribute(name: "type", value: "get"), XMLAttribute(name: "id", value: "1")])
        XCTAssertEqual(element[attribute: "type"], "get")
        XCTAssertNil(element[attribute: "to"])
        element[attribute: "type"] = "set"
        element[attribute: "to"] = "a@b"
        XCTAssertEqual(element.attributes, [
            XMLAttribute(name: "type", value: "set"), XMLAttribute(name: "id", value: "1"), XMLAttribute(name: "to", value: "a@b"),
        ])
        element[attribute: "id"] = nil
        element[attribute: "missing"] = nil
        XCTAssertEqual(element.attributes.map(\.name), ["type", "to"])
    }

    func testChildLookup() {
        XCTAssertEqual(Self.query.child("item")?[attribute: "jid"], "1@x")
        XCTAssertEqual(Self.query.child("item", namespace: "urn:other")?[attribute: "jid"], "2@x")
        XCTAssertNil(Self.query.child("item", namespace: "urn:none"))
        XCTAssertNil(Self.query.child("missing"))
        XCTAssertEqual(Self.query.children("item").map { $0[attribute: "jid"] }, ["1@x", "2@x", "3@x"])
        XCTAssertEqual(Self.query.children("item", namespace: "jabber:iq:roster").map { $0[attribute: "jid"] }, ["1@x", "3@x"])
        XCTAssertEqual(Self.query.elements.map(\.name), ["item", "item", "item", "group"])
        XCTAssertEqual(Self.query.text, "ab")
    }

    func testAppendTextCoalesces() {
        var element = XMLElement("body")
        element.append(text: "")
        XCTAssertEqual(element.children, [])
        element.append(text: "a")
        element.append(text: "b")
        element.append(XMLElement("br"))
        element.append(text: "c")
        XCTAssertEqual(element.children, [.text("ab"), .element(XMLElement("br")), .text("c")])
        XCTAssertEqual(element.text, "abc")
    }

    func testNodeAccessors() {
        XCTAssertEqual(XMLNode.text("t").textValue, "t")
        XCTAssertNil(XMLNode.text("t").element)
        XCTAssertEqual(XMLNode.element(XMLElement("e")).element?.name, "e")
        XCTAssertNil(XMLNode.element(XMLElement("e")).textValue)
    }

    func testHashableAndEquatable() {
        let a = XMLElement("a", namespace: "n", attributes: ["x": "1"])
        var b = a
        XCTAssertEqual(Set([a, b]).count, 1)
        b.namespace = "m"
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(Set([a, b]).count, 2)
    }
}
