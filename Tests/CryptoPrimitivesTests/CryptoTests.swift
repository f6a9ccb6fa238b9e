import XCTest
@testable import CryptoPrimitives

final class CryptoTests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }
    private func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    func testSHADigestsKnownAnswers() {
        // FIPS 180-4 examples for "abc".
        XCTAssertEqual(hex(Crypto.hash(.sha1, ascii("abc"))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(
            hex(Crypto.hash(.sha256, ascii("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            hex(Crypto.hash(.sha512, ascii("abc"))),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        XCTAssertEqual(hex(Crypto.hash(.sha1, [UInt8]())), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        // A non-contiguous collection goes through the copying path.
        XCTAssertEqual(Crypto.hash(.sha256, ascii("abc").lazy.map { $0 }), Crypto.hash(.sha256, ascii("abc")))
        for f in HashFunction.allCases { XCTAssertEqual(Crypto.hash(f, [1, 2, 3]).count, f.digestLength) }
    }

    func testHMACRFC4231() {
        // Test case 1.
        XCTAssertEqual(
            hex(Crypto.hmac(.sha256, key: [UInt8](repeating: 0x0b, count: 20), data: ascii("Hi There"))),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2: key shorter than the block.
        XCTAssertEqual(
            hex(Crypto.hmac(.sha256, key: ascii("Jefe"), data: ascii("what do ya want for nothing?"))),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: key longer than the block.
        XCTAssertEqual(
            hex(Crypto.hmac(
                .sha256, key: [UInt8](repeating: 0xaa, count: 131),
                data: ascii("Test Using Larger Than Block-Size Key - Hash Key First"))),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // Test case 2 for SHA-512.
        XCTAssertEqual(
            hex(Crypto.hmac(.sha512, key: ascii("Jefe"), data: ascii("what do ya want for nothing?"))),
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737")
        // Empty key and data still work (OpenSSL gets non-null pointers).
        XCTAssertEqual(
            hex(Crypto.hmac(.sha256, key: [], data: [])),
            "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    func testPBKDF2SHA1RFC6070() {
        let cases: [(String, String, Int, String)] = [
            ("password", "salt", 1, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
            ("password", "salt", 2, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
            ("password", "salt", 4096, "4b007901b765489abead49d926f721d065a429c1"),
        ]
        for (password, salt, iterations, expected) in cases {
            XCTAssertEqual(
                hex(Crypto.pbkdf2(.sha1, password: ascii(password), salt: ascii(salt), iterations: iterations)),
                expected, "c=\(iterations)")
        }
        // RFC 6070 case 6 (16-byte output there): password and salt with NUL bytes.
        let withNul = Crypto.pbkdf2(.sha1, password: ascii("pass\0word"), salt: ascii("sa\0lt"), iterations: 4096)
        XCTAssertEqual(hex(Array(withNul.prefix(16))), "56fa6aa75548099dcc37d7f03425e0c3")
    }

    func testPBKDF2SHA256() {
        XCTAssertEqual(
            hex(Crypto.pbkdf2(.sha256, password: ascii("password"), salt: ascii("salt"), iterations: 1)),
            "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b")
        XCTAssertEqual(
            hex(Crypto.pbkdf2(.sha256, password: ascii("password"), salt: ascii("salt"), iterations: 4096)),
            "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a")
        XCTAssertEqual(Crypto.pbkdf2(.sha512, password: [], salt: [1], iterations: 1).count, 64)
    }

    func testRandomBytes() {
        XCTAssertEqual(Crypto.randomBytes(0), [])
        let a = Crypto.randomBytes(32)
        let b = Crypto.randomBytes(32)
        XCTAssertEqual(a.count, 32)
        XCTAssertNotEqual(a, b)
    }

    func testConstantTimeEqual() {
        XCTAssertTrue(Crypto.constantTimeEqual([], []))
        XCTAssertTrue(Crypto.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(Crypto.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(Crypto.constantTimeEqual([1, 2, 3], [1, 2]))
        XCTAssertFalse(Crypto.constantTimeEqual([], [0]))
    }

    func testHex() {
        XCTAssertEqual(Hex.encode([0x00, 0x0f, 0xa0, 0xff]), "000fa0ff")
        XCTAssertEqual(Hex.encode([UInt8]()), "")
    }
}
