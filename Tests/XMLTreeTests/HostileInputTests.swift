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

    /// Random mutations of a valid stream, fed in random chunks: every outcome is events or a
    /// typed error (no crash), and an error repeats on the next feed.
    func testMutatedStreamsNeverCrash() {
        let iterations = Int(ProcessInfo.processInfo.environment["XMLTREE_FUZZ_ITERATIONS"] ?? "") ?? 300
        let seedBytes = Array((ChunkingTests.stream + StreamParsingTests.stream.dropFirst(Fixture.header.count)).utf8)
        let alphabet = Array("<>/='\"&;#x![]?-: \u{0}\u{FF}".utf8) + [0xC3, 0xA9, 0xF0, 0x9F, 0x80, 0xBF]
        var generator = SplitMix(seed: 7)
        var failures = 0
        for _ in 0..<iterations {
            var bytes = seedBytes
            for _ in 0..<Int(generator.next() % 8) + 1 {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                case 1: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                default: bytes.remove(at: position)
                }
            }
            let parser = XMLStreamParser(limits: XMLLimits(maxStanzaBytes: 4096, maxDepth: 8, maxAttributes: 4))
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + Int(generator.next() % 64) + 1)
                do {
                    _ = try parser.feed(bytes[offset..<end])
                } catch {
                    failures += 1
                    XCTAssertThrowsError(try parser.feed([UInt8(ascii: " ")])) { XCTAssertEqual($0 as? XMLTreeError, error) }
                    break
                }
                offset = end
            }
        }
        XCTAssertGreaterThan(failures, 0)
    }
}
