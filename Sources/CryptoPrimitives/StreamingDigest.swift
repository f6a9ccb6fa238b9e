import CLibCrypto

/// A digest computed over data given in pieces (OpenSSL `EVP_DigestUpdate`): the same result as
/// `Crypto.hash` over the pieces joined, without holding them all.
public final class StreamingDigest {
    private let function: HashFunction
    private let context: OpaquePointer

    /// A digest under `function`, with nothing hashed yet.
    public init(_ function: HashFunction) {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("OpenSSL EVP_MD_CTX_new failed") }
        let ok = EVP_DigestInit_ex(context, function.evpMD, nil)
        precondition(ok == 1, "OpenSSL EVP_DigestInit_ex failed")
        self.function = function
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Hashes the next piece.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let ok = EVP_DigestUpdate(context, base, bytes.count)
        precondition(ok == 1, "OpenSSL EVP_DigestUpdate failed")
    }

    /// Hashes the next piece.
    public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The digest of every piece so far; the digest takes no more pieces after it.
    public func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: function.digestLength)
        var length: UInt32 = 0
        let ok = EVP_DigestFinal_ex(context, &out, &length)
        precondition(ok == 1 && Int(length) == function.digestLength, "OpenSSL EVP_DigestFinal_ex failed")
        return out
    }
}
