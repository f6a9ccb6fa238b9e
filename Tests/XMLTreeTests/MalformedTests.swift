import XCTest
import XMLTree

/// Input that is not (namespace-)well-formed gives `.malformed` with libxml2's message and position.
final class MalformedTests: XCTestCase {
    func testMismatchedTags() throws {
        let message = try XCTUnwrap(malformedMessage(streamError(Fixture.header + "<message><body></message>")))
        XCTAssertTrue(message.hasPrefix("line 1, column "), message)
        XCTAssertTrue(message.contains("Opening and ending tag mismatch: body"), message)
        XCTAssertFalse(message.contains("\n"))
    }

    func testLineNumberIsReported() throws {
        let message = try XCTUnwrap(malformedMessage(streamError(Fixture.header + "\n\n<a></b>")))
        XCTAssertTrue(message.hasPrefix("line 3, column "), message)
    }

    func testBadUTF8() throws {
        let bytes = Array((Fixture.header + "<message><body>").utf8) + [0xFF, 0xFE] + Array("</body></message>".utf8)
        XCTAssertThrowsError(try XMLStreamParser().feed(bytes)) { error in
            let message = malformedMessage(error as? XMLTreeError)
            XCTAssertNotNil(message)
            XCTAssertTrue(message?.contains("UTF-8") ?? false, message ?? "")
            XCTAssertFalse(message?.contains("\n") ?? true)
        }
    }

    func testTruncatedUTF8SequenceFollowedByASCII() {
        let bytes = Array((Fixture.header + "<a>").utf8) + [0xE2, 0x82] + Array("</a>".utf8)
        XCTAssertThrowsError(try XMLStreamParser().feed(bytes)) { XCTAssertNotNil(malformedMessage($0 as? XMLTreeError)) }
    }

    func testOverlongUTF8AndEncodedSurrogateAreRefused() {
        for invalid: [UInt8] in [[0xC0, 0xBC], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]] {
            let bytes = Array((Fixture.header + "<a>").utf8) + invalid + Array("</a>".utf8)
            XCTAssertThrowsError(try XMLStreamParser().feed(bytes), "\(invalid)") {
                XCTAssertNotNil(malformedMessage($0 as? XMLTreeError))
            }
        }
    }

    func testIllegalCharacterReferenceAndControlCharacter() {
        XCTAssertNotNil(malformedMessage(streamError(Fixture.header + "<a>&#0;</a>")))
        XCTAssertNotNil(malformedMessage(streamError(Fixture.header + "<a>\u{01}</a>")))
    }

    func testUndeclaredPrefix() {
        XCTAssertNotNil(malformedMessage(streamError(Fixture.header + "<foo:bar/>")))
        XCTAssertNotNil(malformedMessage(streamError(Fixture.header + "<a foo:b='1'/>")))
    }

    func testDuplicateAttribute() {
        XCTAssertNotNil(malformedMessage(streamError(Fixture.header + "<a b='1' b='2'/>")))
    }

    func testContentAfterStreamClose() throws {
        let parser = XMLStreamParser()
        XCTAssertEqual(try parser.feed(Array((Fixture.header + "</stream:stream>").utf8)).last, .streamClosed)
        XCTAssertThrowsError(try parser.feed(Array("<presence/>".utf8))) { XCTAssertNotNil(malformedMessage($0 as? XMLTreeError)) }
    }

    func testGarbageInsteadOfAStream() {
        XCTAssertNotNil(malformedMessage(streamError("HTTP/1.1 400 Bad Request\r\n\r\n")))
    }

    func testDocumentErrors() {
        XCTAssertNotNil(malformedMessage(documentError("")))
        XCTAssertNotNil(malformedMessage(documentError("<a>")))
        XCTAssertNotNil(malformedMessage(documentError("<a/><b/>")))
        XCTAssertNotNil(malformedMessage(documentError("text")))
    }

    func testErrorDescriptionsAreOneLine() {
        let errors: [XMLTreeError] = [
            .malformed("line 1, column 2: x"), .doctypeForbidden, .entityForbidden, .processingInstructionForbidden,
            .commentForbidden, .stanzaTooLarge(limit: 5), .tooDeep(limit: 6), .tooManyAttributes(limit: 7),
            .parserUnavailable,
        ]
        for error in errors {
            XCTAssertFalse(error.description.isEmpty)
            XCTAssertFalse(error.description.contains("\n"))
        }
        XCTAssertEqual(XMLTreeError.stanzaTooLarge(limit: 5).description, "XML stanza larger than 5 bytes")
        XCTAssertEqual(XMLTreeError.malformed("line 1, column 2: x").description, "malformed XML: line 1, column 2: x")
    }
}
