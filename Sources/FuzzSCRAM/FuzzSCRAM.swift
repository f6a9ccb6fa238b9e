import CryptoPrimitives
import FuzzSupport
import XMPPConnection

/// Fuzz target for the SCRAM client (RFC 5802/7677) fed hostile server-first and server-final
/// messages, through the public `SCRAMClient` with a fixed client nonce so inputs can pass the
/// nonce check.
///
/// Input: one selector byte (hash = byte % 3: SHA-1, SHA-256, SHA-512; channel binding =
/// byte / 3 % 3: `n`, `y`, `p=tls-exporter` with 32 fixed bytes), then server-first, a NUL
/// byte, server-final. The credential is keys cached for password `pencil`, salt
/// `fuzz-salt-0123456`, 4096 iterations (PBKDF2 is skipped, so a hostile iteration count cannot
/// stall the fuzzer; `fuzz/make-scram-seeds` builds matching seeds). Invariants: no crash; only
/// the genuine signature verifies; steps out of order throw.
enum FuzzSCRAMTarget: FuzzTarget {
    static let clientNonce = "fuzzClientNonce"
    static let salt = Array("fuzz-salt-0123456".utf8)
    static let keys: [HashFunction: SCRAMKeys] = {
        var keys: [HashFunction: SCRAMKeys] = [:]
        for hash in [HashFunction.sha1, .sha256, .sha512] {
            keys[hash] = try? SCRAMKeys.derive(hash: hash, password: "pencil", salt: salt, iterations: 4096)
        }
        return keys
    }()

    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard let selector = data.first else { return }
        let hash: HashFunction = [.sha1, .sha256, .sha512][Int(selector) % 3]
        let binding: ChannelBinding = [.unsupported, .supportedButNotUsed,
                                       .bound(.tlsExporter, Array(repeating: 0xA5, count: 32))][Int(selector) / 3 % 3]
        let rest = data.dropFirst()
        let nul = rest.firstIndex(of: 0) ?? rest.endIndex
        let serverFirst = Array(rest[..<nul])
        let serverFinal = nul < rest.endIndex ? Array(rest[(nul + 1)...]) : []
        guard let cached = keys[hash] else { return FuzzReplay.invariant(false, "no keys for \(hash)") }

        let mechanism = SCRAMMechanism(hash: hash, plus: binding != .unsupported && binding != .supportedButNotUsed)
        var client: SCRAMClient
        do throws(SASLError) {
            client = try SCRAMClient(mechanism: mechanism, username: "user", credential: .keys(cached),
                                     channelBinding: binding, clientNonce: clientNonce)
        } catch {
            return FuzzReplay.invariant(false, "setup failed: \(error)")
        }
        var early = client
        FuzzReplay.invariant((try? early.verify(serverFinal: serverFinal)) == nil, "verify before client-final succeeded")
        _ = client.clientFirstMessage()
        do throws(SASLError) {
            _ = try client.clientFinalMessage(serverFirst: serverFirst)
        } catch {
            FuzzReplay.invariant(!client.isVerified, "verified after a refused server-first")
            return
        }
        do throws(SASLError) {
            try client.verify(serverFinal: serverFinal)
            FuzzReplay.invariant(client.isVerified, "verify returned without verifying")
            FuzzReplay.invariant(serverFinal.starts(with: Array("v=".utf8)), "verified without v=")
        } catch {
            FuzzReplay.invariant(!client.isVerified, "verified although verify threw \(error)")
        }
        var again = client
        FuzzReplay.invariant((try? again.verify(serverFinal: serverFinal)) == nil, "verify ran twice")
    }
}
