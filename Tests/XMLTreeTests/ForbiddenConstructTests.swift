import XCTest
import XMLTree

/// DTDs, entities, processing instructions and comments are refused with typed errors.
final class ForbiddenConstructTests: XCTestCase {
    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
         <!ENTITY lol "lol">
         <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
         <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
         <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
         <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
         <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
         <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
         <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
         <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <stream:stream xmlns:stream='http://etherx.jabber.org/streams'><lolz>&lol9;</lolz></stream:stream>
        """
    static let externalEntity = """
        <?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
        <stream:stream xmlns:stream='http://etherx.jabber.org/streams'><foo>&xxe;</foo>
        """

    func testDoctypeIsRefused() {
        XCTAssertEqual(streamError("<!DOCTYPE stream><stream/>"), .doctypeForbidden)
        XCTAssertEqual(streamError("<?xml version='1.0'?><!DOCTYPE s SYSTEM 'http://example.org/s.dtd'><s/>"), .doctypeForbidden)
        XCTAssertEqual(documentError("<!DOCTYPE a [<!ELEMENT a ANY>]><a/>"), .doctypeForbidden)
    }

    func testBillionLaughsIsRefusedAtOnce() {
        XCTAssertEqual(streamError(Self.billionLaughs), .doctypeForbidden)
        XCTAssertEqual(documentError(Self.billionLaughs), .doctypeForbidden)
    }

    func testBillionLaughsFedByteByByteStopsAtTheDoctype() {
        let parser = XMLStreamParser()
        let bytes = Array(Self.billionLaughs.utf8)
        let doctypeEnd = Array("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">".utf8).count
        for (index, byte) in bytes.enumerated() {
            do {
                _ = try parser.feed([byte])
            } catch {
                XCTAssertEqual(error, .doctypeForbidden)
                XCTAssertLessThanOrEqual(index, doctypeEnd)
                return
            }
        }
        XCTFail("billion laughs accepted")
    }

    func testExternalEntityIsRefused() {
        XCTAssertEqual(streamError(Self.externalEntity), .doctypeForbidden)
        XCTAssertEqual(documentError(Self.externalEntity), .doctypeForbidden)
    }

    func testUndefinedEntityIsRefused() {
        XCTAssertEqual(streamError(Fixture.header + "<message><body>&nbsp;</body></message>"), .entityForbidden)
        XCTAssertEqual(streamError(Fixture.header + "<message a='x&foo;y'/>"), .entityForbidden)
        XCTAssertEqual(documentError("<a>&xxe;</a>"), .entityForbidden)
    }

    func testProcessingInstructionIsRefused() {
        XCTAssertEqual(streamError(Fixture.header + "<message><?php echo 1; ?></message>"), .processingInstructionForbidden)
        XCTAssertEqual(streamError("<?xml version='1.0'?><?xml-stylesheet href='a'?><s/>"), .processingInstructionForbidden)
        XCTAssertEqual(documentError("<a/><?pi?>"), .processingInstructionForbidden)
    }

    func testCommentIsRefused() {
        XCTAssertEqual(streamError(Fixture.header + "<message><!-- hi --></message>"), .commentForbidden)
        XCTAssertEqual(streamError("<!-- before --><stream/>"), .commentForbidden)
        XCTAssertEqual(documentError("<a><!----></a>"), .commentForbidden)
    }

    func testXMLDeclarationAfterTheStartIsMalformed() {
        XCTAssertNotNil(malformedMessage(streamError(Fixture.header + "<?xml version='1.0'?>")))
    }

    func testErrorIsStickyUntilReset() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Array(Fixture.header.utf8))
        XCTAssertThrowsError(try parser.feed(Array("<a><!-- x --></a>".utf8))) { XCTAssertEqual($0 as? XMLTreeError, .commentForbidden) }
        XCTAssertThrowsError(try parser.feed(Array("<presence/>".utf8))) { XCTAssertEqual($0 as? XMLTreeError, .commentForbidden) }
        XCTAssertThrowsError(try parser.feed([UInt8]())) { XCTAssertEqual($0 as? XMLTreeError, .commentForbidden) }
        parser.reset()
        XCTAssertEqual(try parser.feed(Array(Fixture.header.utf8)), [.streamOpened(Fixture.expectedHeader)])
    }

    func testEventsBeforeAnErrorInTheSameFeedAreDropped() {
        let parser = XMLStreamParser()
        XCTAssertThrowsError(try parser.feed(Array((Fixture.header + "<presence/><!-- -->").utf8))) {
            XCTAssertEqual($0 as? XMLTreeError, .commentForbidden)
        }
    }
}
