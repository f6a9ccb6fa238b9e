import XCTest
@testable import CryptoPrimitives

/// A digest fed in pieces is the digest of the pieces joined: a batch's journal identity (the
/// SHA-256 of its input, read a block at a time) must not change with how the input was read.
final class StreamingDigestTests: XCTestCase {
    func testPiecesGiveTheDigestOfTheWhole() {
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for function in HashFunction.allCases {
            for size in [1, 63, 64, 65, 4096, 5000] {
                let digest = StreamingDigest(function)
                var offset = 0
                while offset < bytes.count {
                    digest.update(Array(bytes[offset..<min(bytes.count, offset + size)]))
                    offset += size
                }
                XCTAssertEqual(digest.finish(), Crypto.hash(function, bytes), "\(function) in pieces of \(size)")
            }
        }
        // FIPS 180-4's "abc", and nothing at all.
        let abc = StreamingDigest(.sha256)
        abc.update(Array("a".utf8))
        abc.update(Array("bc".utf8))
        XCTAssertEqual(Hex.encode(abc.finish()), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(Hex.encode(StreamingDigest(.sha256).finish()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
