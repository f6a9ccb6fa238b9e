import CryptoPrimitives
import XCTest
@testable import XMPPConnection

/// Whole SCRAM exchanges against published examples and an independent test server.
final class SCRAMVectorTests: XCTestCase {
    private func client(
        _ name: String, nonce: String, credential: SCRAMCredential = .password("pencil"),
        binding: ChannelBinding = .unsupported
    ) throws -> SCRAMClient {
        let mechanism = try XCTUnwrap(SCRAMMechanism(name: name))
        return try SCRAMClient(
            mechanism: mechanism, username: "user", credential: credential, channelBinding: binding,
            clientNonce: nonce)
    }

    /// RFC 5802 §5.
    func testRFC5802SHA1Example() throws {
        var scram = try client("SCRAM-SHA-1", nonce: "fyko+d2lbbFgONRv9qkxdawL")
        XCTAssertEqual(String(decoding: scram.clientFirstMessage(), as: UTF8.self), "n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL")
        let final = try scram.clientFinalMessage(
            serverFirst: bytes("r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096"))
        XCTAssertEqual(
            String(decoding: final, as: UTF8.self),
            "c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=")
        XCTAssertFalse(scram.isVerified)
        try scram.verify(serverFinal: bytes("v=rmF9pqV8S7suAoZWja4dJRkFsKQ="))
        XCTAssertTrue(scram.isVerified)
        XCTAssertEqual(scram.keys?.iterations, 4096)
        XCTAssertEqual(scram.keys?.salt, Base64.decode("QSXCR+Q6sek8bf92"))
    }

    /// RFC 7677 §3.
    func testRFC7677SHA256Example() throws {
        var scram = try client("SCRAM-SHA-256", nonce: "rOprNGfwEbeRWgbNEkqO")
        XCTAssertEqual(scram.clientFirstMessage(), bytes("n,,n=user,r=rOprNGfwEbeRWgbNEkqO"))
        let final = try scram.clientFinalMessage(
            serverFirst: bytes("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"))
        XCTAssertEqual(
            String(decoding: final, as: UTF8.self),
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
        try scram.verify(serverFinal: bytes("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="))
        XCTAssertEqual(scram.keys?.hash, .sha256)
    }

    /// The SCRAM-SHA-512 example from draft-melnikov-scram-sha-512 as used by Apache Qpid and Kafka tests.
    func testSHA512PublishedVector() throws {
        var scram = try client("SCRAM-SHA-512", nonce: "rOprNGfwEbeRWgbNEkqO")
        _ = scram.clientFirstMessage()
        let final = try scram.clientFinalMessage(serverFirst: bytes(
            "r=rOprNGfwEbeRWgbNEkqO02431b08-2f89-4bad-a4e6-80c0564ec865,s=Yin2FuHTt/M0kJWb0t9OI32n2VmOGi3m+JfjOvuDF88=,i=4096"))
        XCTAssertEqual(
            String(decoding: final, as: UTF8.self),
            "c=biws,r=rOprNGfwEbeRWgbNEkqO02431b08-2f89-4bad-a4e6-80c0564ec865,"
                + "p=Hc5yec3NmCD7t+kFRw4/3yD6/F3SQHc7AVYschRja+Bc3sbdjlA0eH1OjJc0DD4ghn1tnXN5/Wr6qm9xmaHt4A==")
        try scram.verify(serverFinal: bytes(
            "v=BQuhnKHqYDwQWS5jAw4sZed+C9KFUALsbrq81bB0mh+bcUUbbMPNNmBIupnS2AmyyDnG5CTBQtkjJ9kyY4kzmw=="))
    }

    /// Every hash against the independent server; the random default nonce is used.
    func testEveryHashAgainstTestServer() throws {
        for hash in HashFunction.allCases {
            var server = TestSCRAMServer(hash: hash, password: "s3cret pass", salt: Array("NaCl-\(hash)".utf8), iterations: 4096)
            var scram = try SCRAMClient(
                mechanism: SCRAMMechanism(hash: hash, plus: false), username: "juliet",
                credential: .password("s3cret pass"), channelBinding: .unsupported)
            let serverFirst = try server.respond(toClientFirst: scram.clientFirstMessage())
            XCTAssertEqual(server.username, "juliet")
            XCTAssertEqual(server.clientNonce.count, 32, "24 random bytes in base 64")
            let serverFinal = try server.respond(toClientFinal: scram.clientFinalMessage(serverFirst: serverFirst))
            try scram.verify(serverFinal: serverFinal)
            XCTAssertEqual(scram.keys?.serverKey, server.serverKey, "\(hash)")
            XCTAssertEqual(scram.keys.map { Crypto.hash(hash, $0.clientKey) }, server.storedKey)
            XCTAssertEqual(scram.keys?.storedKey, server.storedKey)
        }
    }

    /// A wrong password is caught by the server (invalid proof), and by the client (signature).
    func testWrongPasswordFailsBothWays() throws {
        var server = TestSCRAMServer(hash: .sha256, password: "right", salt: [1, 2, 3, 4], iterations: 4096)
        var scram = try client("SCRAM-SHA-256", nonce: "abc", credential: .password("wrong"))
        let final = try scram.clientFinalMessage(serverFirst: server.respond(toClientFirst: scram.clientFirstMessage()))
        XCTAssertThrowsError(try server.respond(toClientFinal: final)) {
            XCTAssertEqual($0 as? TestSCRAMServer.Failure, .invalidProof)
        }
        let honest = Crypto.hmac(.sha256, key: server.serverKey, data: bytes("not the auth message"))
        assertSASLError(.serverSignatureMismatch) { () throws(SASLError) in
            try scram.verify(serverFinal: bytes("v=" + Base64.encode(honest)))
        }
        XCTAssertFalse(scram.isVerified)
    }

    /// Cached keys produce the same client-final as the password, without PBKDF2.
    func testCachedKeysAuthenticateLikeThePassword() throws {
        let serverFirst = bytes("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")
        var withPassword = try client("SCRAM-SHA-256", nonce: "rOprNGfwEbeRWgbNEkqO")
        _ = withPassword.clientFirstMessage()
        let expected = try withPassword.clientFinalMessage(serverFirst: serverFirst)
        let keys = try XCTUnwrap(withPassword.keys)

        var withKeys = try client("SCRAM-SHA-256", nonce: "rOprNGfwEbeRWgbNEkqO", credential: .keys(keys))
        XCTAssertNil(withKeys.keys)
        _ = withKeys.clientFirstMessage()
        XCTAssertEqual(try withKeys.clientFinalMessage(serverFirst: serverFirst), expected)
        try withKeys.verify(serverFinal: bytes("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="))
        XCTAssertEqual(withKeys.keys, keys)
        // Keys derived directly agree.
        XCTAssertEqual(
            try SCRAMKeys.derive(hash: .sha256, password: "pencil", salt: keys.salt, iterations: 4096), keys)
    }

    /// A changed salt or iteration count means the password changed: a distinct error.
    func testCachedKeysStale() throws {
        let keys = try SCRAMKeys.derive(hash: .sha1, password: "pencil", salt: Array("salt".utf8), iterations: 4096)
        for serverFirst in [
            "r=abcdef,s=c2FsdDI=,i=4096",  // other salt
            "r=abcdef,s=c2FsdA==,i=8192",  // other iteration count
        ] {
            var scram = try client("SCRAM-SHA-1", nonce: "abc", credential: .keys(keys))
            _ = scram.clientFirstMessage()
            assertSASLError(.cachedKeysStale) { () throws(SASLError) in
                try scram.clientFinalMessage(serverFirst: bytes(serverFirst))
            }
        }
        var fresh = try client("SCRAM-SHA-1", nonce: "abc", credential: .keys(keys))
        _ = fresh.clientFirstMessage()
        XCTAssertNoThrow(try fresh.clientFinalMessage(serverFirst: bytes("r=abcdef,s=c2FsdA==,i=4096")))
    }

    /// Keys for another hash, or with wrong lengths, are refused up front.
    func testCachedKeysForAnotherHashRefused() throws {
        let keys = try SCRAMKeys.derive(hash: .sha1, password: "pencil", salt: [9], iterations: 4096)
        XCTAssertThrowsError(try client("SCRAM-SHA-256", nonce: "abc", credential: .keys(keys)))
        var short = keys
        short.clientKey.removeLast()
        XCTAssertThrowsError(try client("SCRAM-SHA-1", nonce: "abc", credential: .keys(short)))
    }
}
