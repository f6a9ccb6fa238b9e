import CryptoPrimitives
import XCTest
@testable import XMPPConnection

/// A minimal SCRAM server (RFC 5802 §3, server side), written independently of `SCRAMClient`
/// from the Crypto primitives, so tests can run whole exchanges for any hash.
struct TestSCRAMServer {
    enum Failure: Error, Equatable { case badClientFirst(String), badClientFinal(String), invalidProof }

    let hash: HashFunction
    let salt: [UInt8]
    let iterations: Int
    let storedKey: [UInt8]
    let serverKey: [UInt8]
    let serverNonce: String
    /// What the server expects in `c=` once decoded: gs2 header + binding data.
    var expectedChannelBinding: [UInt8]? = nil
    /// Appended to server-first (e.g. `,h=…` for XEP-0474), and so part of AuthMessage.
    var serverFirstExtension = ""

    private(set) var clientFirstBare = ""
    private(set) var serverFirst = ""
    private(set) var clientNonce = ""
    private(set) var username = ""
    private(set) var gs2Header = ""

    init(hash: HashFunction, password: String, salt: [UInt8], iterations: Int, serverNonce: String = "SERVERnonce-42") {
        self.hash = hash
        self.salt = salt
        self.iterations = iterations
        self.serverNonce = serverNonce
        let salted = Crypto.pbkdf2(hash, password: Array(password.utf8), salt: salt, iterations: iterations)
        let clientKey = Crypto.hmac(hash, key: salted, data: Array("Client Key".utf8))
        storedKey = Crypto.hash(hash, clientKey)
        serverKey = Crypto.hmac(hash, key: salted, data: Array("Server Key".utf8))
    }

    /// Parses client-first and returns server-first.
    mutating func respond(toClientFirst bytes: [UInt8]) throws -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].isEmpty else { throw Failure.badClientFirst(text) }
        gs2Header = parts[0] + ",,"
        clientFirstBare = String(parts[2])
        let attributes = clientFirstBare.split(separator: ",")
        guard attributes.count == 2, attributes[0].hasPrefix("n="), attributes[1].hasPrefix("r=") else {
            throw Failure.badClientFirst(text)
        }
        username = String(attributes[0].dropFirst(2))
        clientNonce = String(attributes[1].dropFirst(2))
        serverFirst = "r=\(clientNonce)\(serverNonce),s=\(Base64.encode(salt)),i=\(iterations)" + serverFirstExtension
        return Array(serverFirst.utf8)
    }

    /// Checks client-final (channel binding, nonce, proof) and returns server-final.
    func respond(toClientFinal bytes: [UInt8]) throws -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let proofRange = text.range(of: ",p=") else { throw Failure.badClientFinal(text) }
        let withoutProof = String(text[..<proofRange.lowerBound])
        let attributes = withoutProof.split(separator: ",")
        guard attributes.count == 2, attributes[0].hasPrefix("c="),
            attributes[1] == "r=\(clientNonce)\(serverNonce)",
            let binding = Base64.decode(attributes[0].dropFirst(2)),
            binding == (expectedChannelBinding ?? Array(gs2Header.utf8)),
            let proof = Base64.decode(text[proofRange.upperBound...])
        else { throw Failure.badClientFinal(text) }
        let authMessage = Array("\(clientFirstBare),\(serverFirst),\(withoutProof)".utf8)
        let clientSignature = Crypto.hmac(hash, key: storedKey, data: authMessage)
        let clientKey = zip(proof, clientSignature).map { $0 ^ $1 }
        guard proof.count == clientSignature.count, Crypto.hash(hash, clientKey) == storedKey else {
            throw Failure.invalidProof
        }
        return Array("v=\(Base64.encode(Crypto.hmac(hash, key: serverKey, data: authMessage)))".utf8)
    }
}

extension XCTestCase {
    /// The bytes of `text` (UTF-8).
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Asserts that `body` throws exactly `expected`.
    func assertSASLError<T>(
        _ expected: SASLError, file: StaticString = #filePath, line: UInt = #line, _ body: () throws(SASLError) -> T
    ) {
        do {
            let value = try body()
            XCTFail("expected \(expected), got \(value)", file: file, line: line)
        } catch {
            XCTAssertEqual(error, expected, file: file, line: line)
        }
    }
}
