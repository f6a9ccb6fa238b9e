import XCTest
import XMLTree

/// Input shaped to hit libxml2's slow paths, and encodings other than UTF-8.
final class HostileInputTests: XCTestCase {
    /// Feeds `body` after a header one byte per call and returns the event count and the time taken.
    func feedByteByByte(_ body: String) throws -> (Int, Duration) {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        let start = ContinuousClock.now
        var count = 0
        for byte in body.utf8 {
            count += try parser.feed(CollectionOfOne(byte)).count
        }
        return (count, ContinuousClock.now - start)
    }

    /// libxml2 alone rescans an unfinished tag whenever a chunk holds `>`: 33 s for this one
    /// (quadratic). Holding back unfinished constructs makes it about 1 s in a debug build.
    func testGreaterThanSignsInALongAttributeFedByteByByteStayLinear() throws {
        let (count, elapsed) = try feedByteByByte("<m a='" + String(repeating: ">", count: 200_000) + "'/>")
        XCTAssertEqual(count, 1)
        XCTAssertLessThan(elapsed, .seconds(10))
    }

    func testLongCDATAFedByteByByteStaysLinear() throws {
        let (count, elapsed) = try feedByteByByte("<m><![CDATA[" + String(repeating: "]>", count: 100_000) + "]]></m>")
        XCTAssertEqual(count, 1)
        XCTAssertLessThan(elapsed, .seconds(10))
    }

    func testUnfinishedTagIsStillLimited() throws {
        let parser = XMLStreamParser(limits: XMLLimits(maxStanzaBytes: 1000))
        _ = try parser.feed(Array(Fixture.header.utf8))
        _ = try parser.feed(Array("<m a='".utf8))
        let chunk = Array(String(repeating: ">", count: 99).utf8)
        for _ in 0..<10 {  // 996 bytes
            XCTAssertEqual(try parser.feed(chunk), [])
        }
        XCTAssertThrowsError(try parser.feed(chunk)) { XCTAssertEqual($0 as? XMLTreeError, .stanzaTooLarge(limit: 1000)) }
    }

    func testUTF8ByteOrderMarkIsAccepted() throws {
        let events = try XMLStreamParser().feed([0xEF, 0xBB, 0xBF] + Array(Fixture.header.utf8))
        XCTAssertEqual(events, [.streamOpened(Fixture.expectedHeader)])
        XCTAssertEqual(try parseXMLDocument(bytes: [0xEF, 0xBB, 0xBF] + Array("<a/>".utf8)), XMLElement("a"))
    }

    func testUTF16IsRefused() {
        let utf16 = Array("<s><a/></s>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        XCTAssertThrowsError(try XMLStreamParser().feed([0xFF, 0xFE] + utf16)) {
            XCTAssertEqual($0 as? XMLTreeError, .malformed("line 1, column 1: the input is not UTF-8"))
        }
        XCTAssertThrowsError(try XMLStreamParser().feed(utf16)) { XCTAssertNotNil(malformedMessage($0 as? XMLTreeError)) }
    }

    func testDeclaredEncodingIsIgnored() throws {
        let element = try parseXMLDocument("<?xml version='1.0' encoding='ISO-8859-1'?><a>é</a>")
        XCTAssertEqual(element, XMLElement("a", children: [.text("é")]))
    }

    func testNULByteIsMalformed() {
        XCTAssertNotNil(malformedMessage(streamError(Fixture.header + "<a>\u{0}</a>")))
    }
}
