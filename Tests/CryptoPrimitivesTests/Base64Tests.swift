import XCTest
@testable import CryptoPrimitives

final class Base64Tests: XCTestCase {
    /// RFC 4648 §10 vectors.
    private let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]

    func testRFC4648Vectors() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8), encoded)
        }
    }

    func testRoundTripAllLengthsAndBytes() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        for length in 0...bytes.count {
            let slice = Array(bytes.prefix(length))
            XCTAssertEqual(Base64.decode(Base64.encode(slice)), slice, "length \(length)")
        }
        XCTAssertEqual(Base64.encode([0xfb, 0xff, 0xbf]), "+/+/")
        XCTAssertEqual(Base64.decode(Substring("xx+/+/").dropFirst(2)), [0xfb, 0xff, 0xbf])
    }

    func testRejectsJunk() {
        let bad = [
            "Zg", "Zg=", "Zm9", "Z===", "====", "Zg==Zg==", "Zm=v", "Zm9v\n", " Zm9v", "Zm9v=", "Zm9-",
            "Zm9_", "Zm9vYmE*", "Zh==", "Zm9=", "AB=C", "Zm9vYg=\u{e9}", "\u{e9}\u{e9}",
        ]
        for text in bad { XCTAssertNil(Base64.decode(text), text) }
    }

    func testWhitespaceOnlyWhenAsked() {
        let wrapped = "Zm9v\r\nYmFy\n Zg==\t"
        XCTAssertNil(Base64.decode(wrapped))
        XCTAssertEqual(Base64.decode(wrapped, ignoringWhitespace: true), Array("foobarf".utf8))
        XCTAssertNil(Base64.decode("Zm9v\nYm*y", ignoringWhitespace: true))
        XCTAssertEqual(Base64.decode(" \n", ignoringWhitespace: true), [])
    }
}
