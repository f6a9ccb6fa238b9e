import CLibCrypto

/// One-shot cryptographic primitives over OpenSSL: digests, HMAC (RFC 2104), PBKDF2 (RFC 8018),
/// random bytes and constant-time comparison.
public enum Crypto {
    /// The digest of `data` under `f`.
    public static func hash(_ f: HashFunction, _ data: some Collection<UInt8>) -> [UInt8] {
        let bytes = data.withContiguousStorageIfAvailable { Array($0) } ?? Array(data)
        var out = [UInt8](repeating: 0, count: f.digestLength)
        var outLength: UInt32 = 0
        let ok = withNonNullBytes(bytes) { pointer, count in
            EVP_Digest(pointer, count, &out, &outLength, f.evpMD, nil)
        }
        precondition(ok == 1 && Int(outLength) == f.digestLength, "OpenSSL EVP_Digest failed")
        return out
    }

    /// HMAC-`f` of `data` under `key` (RFC 2104).
    public static func hmac(_ f: HashFunction, key: [UInt8], data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: f.digestLength)
        var outLength: UInt32 = 0
        let result = withNonNullBytes(key) { keyPointer, keyCount in
            withNonNullBytes(data) { dataPointer, dataCount in
                HMAC(f.evpMD, keyPointer, Int32(clamping: keyCount), dataPointer, dataCount, &out, &outLength)
            }
        }
        precondition(result != nil && Int(outLength) == f.digestLength, "OpenSSL HMAC failed")
        return out
    }

    /// PBKDF2 with HMAC-`f` (RFC 8018 §5.2, SCRAM's `Hi()`), producing one digest length of output.
    ///
    /// `iterations` must be in 1...Int32.max (SCRAM callers validate the server's count first).
    public static func pbkdf2(_ f: HashFunction, password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        precondition(iterations >= 1 && iterations <= Int(Int32.max), "PBKDF2 iteration count out of range")
        var out = [UInt8](repeating: 0, count: f.digestLength)
        let ok = withNonNullBytes(password) { passwordPointer, passwordCount in
            withNonNullBytes(salt) { saltPointer, saltCount in
                PKCS5_PBKDF2_HMAC(
                    UnsafeRawPointer(passwordPointer).assumingMemoryBound(to: CChar.self),
                    Int32(clamping: passwordCount), saltPointer, Int32(clamping: saltCount),
                    Int32(iterations), f.evpMD, Int32(f.digestLength), &out)
            }
        }
        precondition(ok == 1, "OpenSSL PKCS5_PBKDF2_HMAC failed")
        return out
    }

    /// `count` cryptographically secure random bytes (OpenSSL `RAND_bytes`; the system generator if it fails).
    public static func randomBytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        if RAND_bytes(&out, Int32(clamping: count)) != 1 || count > Int(Int32.max) {
            var generator = SystemRandomNumberGenerator()
            for index in out.indices { out[index] = generator.next() }
        }
        return out
    }

    /// Whether `a` and `b` are equal, in time independent of where they differ (`CRYPTO_memcmp`).
    /// Arrays of different lengths are unequal (the length itself is not secret).
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { aBytes in
            b.withUnsafeBytes { bBytes in
                CRYPTO_memcmp(aBytes.baseAddress, bBytes.baseAddress, a.count) == 0
            }
        }
    }

    /// Calls `body` with a pointer that is never null, even for an empty array, and the byte count.
    private static func withNonNullBytes<R>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        if bytes.isEmpty {
            let zero: [UInt8] = [0]
            return zero.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { preconditionFailure("one-element array without storage") }
                return body(base, 0)
            }
        }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { preconditionFailure("non-empty array without storage") }
            return body(base, buffer.count)
        }
    }
}
