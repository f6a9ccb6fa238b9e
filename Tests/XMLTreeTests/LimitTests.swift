import XCTest
import XMLTree

/// Stanza size, depth and attribute limits.
final class LimitTests: XCTestCase {
    /// Bytes of `<m>` + filler + `</m>` so the stanza is exactly `size` bytes.
    static func stanza(bytes size: Int) -> String {
        "<m>" + String(repeating: "x", count: size - 7) + "</m>"
    }

    func testStanzaAtTheLimitIsAccepted() throws {
        let parser = XMLStreamParser(limits: XMLLimits(maxStanzaBytes: 1000))
        _ = try parser.feed(Array(Fixture.header.utf8))
        let events = try parser.feed(Array(Self.stanza(bytes: 1000).utf8))
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(try parser.feed(Array(Self.stanza(bytes: 1000).utf8)).count, 1)
    }

    func testCompletedStanzaOverTheLimitIsRefused() throws {
        let parser = XMLStreamParser(limits: XMLLimits(maxStanzaBytes: 1000))
        _ = try parser.feed(Array(Fixture.header.utf8))
        XCTAssertThrowsError(try parser.feed(Array(Self.stanza(bytes: 1001).utf8))) {
            XCTAssertEqual($0 as? XMLTreeError, .stanzaTooLarge(limit: 1000))
        }
    }

    func testWhitespaceBeforeAStanzaCountsTowardsIt() throws {
        let parser = XMLStreamParser(limits: XMLLimits(maxStanzaBytes: 1000))
        _ = try parser.feed(Array(Fixture.header.utf8))
        XCTAssertThrowsError(try parser.feed(Array((" " + Self.stanza(bytes: 1000)).utf8))) {
            XCTAssertEqual($0 as? XMLTreeError, .stanzaTooLarge(limit: 1000))
        }
    }

    func testStanzaThatNeverEndsIsRefusedOnceOverTheLimit() throws {
        let parser = XMLStreamParser(limits: XMLLimits(maxStanzaBytes: 4096))
        _ = try parser.feed(Array(Fixture.header.utf8))
        _ = try parser.feed(Array("<message><body>".utf8))  // 15 bytes
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
        for _ in 0..<40 {  // 4,015 bytes so far
            XCTAssertEqual(try parser.feed(chunk), [])
        }
        XCTAssertThrowsError(try parser.feed(chunk)) { XCTAssertEqual($0 as? XMLTreeError, .stanzaTooLarge(limit: 4096)) }
    }

    func testUnterminatedStartTagIsRefusedOnceOverTheLimit() throws {
        let parser = XMLStreamParser(limits: XMLLimits(maxStanzaBytes: 4096))
        _ = try parser.feed(Array(Fixture.header.utf8))
        let huge = "<message a='" + String(repeating: "b", count: 5000)
        XCTAssertThrowsError(try parser.feed(Array(huge.utf8))) { XCTAssertEqual($0 as? XMLTreeError, .stanzaTooLarge(limit: 4096)) }
    }

    func testHugeFeedIsRefusedWithoutParsingItAll() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        let bytes = Array("<m>".utf8) + [UInt8](repeating: UInt8(ascii: "z"), count: 16 << 20)
        XCTAssertThrowsError(try parser.feed(bytes)) { XCTAssertEqual($0 as? XMLTreeError, .stanzaTooLarge(limit: 1 << 20)) }
    }

    func testHeaderCountsAgainstTheLimit() {
        let header = "<stream:stream xmlns:stream='\(Fixture.streams)' id='" + String(repeating: "i", count: 600) + "'>"
        XCTAssertEqual(streamError(header, limits: XMLLimits(maxStanzaBytes: 500)), .stanzaTooLarge(limit: 500))
    }

    func testManySmallStanzasInOneFeedAreFine() throws {
        let parser = XMLStreamParser(limits: XMLLimits(maxStanzaBytes: 200))  // the header is 161 bytes
        _ = try parser.feed(Array(Fixture.header.utf8))
        let stanzas = String(repeating: "<presence from='a@b/c'/>", count: 20_000)
        XCTAssertEqual(try parser.feed(Array(stanzas.utf8)).count, 20_000)
    }

    func testDepthBombIsRefused() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        XCTAssertThrowsError(try parser.feed(Array(String(repeating: "<a>", count: 10_000).utf8))) {
            XCTAssertEqual($0 as? XMLTreeError, .tooDeep(limit: 64))
        }
    }

    func testDepthLimitIsExact() throws {
        let limits = XMLLimits(maxDepth: 3)
        let parser = XMLStreamParser(limits: limits)
        _ = try parser.feed(Array(Fixture.header.utf8))
        XCTAssertEqual(try parser.feed(Array("<a><b><c/></b></a>".utf8)).count, 1)
        XCTAssertThrowsError(try parser.feed(Array("<a><b><c><d/></c></b></a>".utf8))) {
            XCTAssertEqual($0 as? XMLTreeError, .tooDeep(limit: 3))
        }
        XCTAssertNoThrow(try parseXMLDocument("<r><a><b><c/></b></a></r>", limits: limits))
        XCTAssertEqual(documentError("<r><a><b><c><d/></c></b></a></r>", limits: limits), .tooDeep(limit: 3))
    }

    func testAttributeLimitIsExactAndCountsNamespaceDeclarations() throws {
        let limits = XMLLimits(maxAttributes: 3)
        XCTAssertNoThrow(try parseXMLDocument("<a xmlns='u' b='1' c='2'/>", limits: limits))
        XCTAssertEqual(documentError("<a xmlns='u' b='1' c='2' d='3'/>", limits: limits), .tooManyAttributes(limit: 3))
        XCTAssertEqual(documentError("<a xmlns:p='u' xmlns:q='v' xmlns:r='w' xmlns:s='x'/>", limits: limits), .tooManyAttributes(limit: 3))
        // `=` inside values, text, CDATA and the XML declaration is not an attribute.
        XCTAssertNoThrow(try parseXMLDocument("<?xml version='1.0' encoding='UTF-8'?><a b='=====' c=\"=='\">==<![CDATA[<x a=1 b=2 c=3 d=4>]]></a>", limits: limits))
    }

    func testAttributeFloodIsRefusedQuickly() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        var flood = "<message"
        for index in 0..<100_000 {
            flood += " a\(index)=''"
        }
        let start = ContinuousClock.now
        XCTAssertThrowsError(try parser.feed(Array((flood + "/>").utf8))) {
            XCTAssertEqual($0 as? XMLTreeError, .tooManyAttributes(limit: 256))
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
    }
}
