import XCTest
import XMLTree
import XMPPStanzas

/// The payload of an `<iq/>` written as XML, as the XEPs' examples wrap what a test reads.
func iqPayload(_ xml: String, file: StaticString = #filePath, line: UInt = #line) throws -> XMLElement {
    try XCTUnwrap(Iq(element: parseXMLDocument(xml)).payload, "the iq carries no payload", file: file, line: line)
}

/// Asserts that each of `documents`, parsed as XML, is refused by `parse`.
func assertRefused<T>(_ parse: (XMLElement) throws -> T, _ documents: String...,
                      file: StaticString = #filePath, line: UInt = #line) {
    for xml in documents { XCTAssertThrowsError(try parse(parseXMLDocument(xml)), xml, file: file, line: line) }
}
