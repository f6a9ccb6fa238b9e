import CLibCrypto

/// Hash functions SCRAM (RFC 5802, RFC 7677) and avatars (XEP-0084) need, backed by OpenSSL EVP.
public enum HashFunction: String, Sendable, Codable, CaseIterable {
    /// SHA-1 (FIPS 180-4): SCRAM-SHA-1 and avatar ids.
    case sha1 = "SHA-1"
    /// SHA-256 (FIPS 180-4): SCRAM-SHA-256 (RFC 7677).
    case sha256 = "SHA-256"
    /// SHA-512 (FIPS 180-4): SCRAM-SHA-512.
    case sha512 = "SHA-512"

    /// Length in bytes of this function's digest (and of SCRAM keys derived with it).
    public var digestLength: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha512: 64
        }
    }

    /// OpenSSL's static message-digest descriptor; never freed.
    var evpMD: OpaquePointer? {
        switch self {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha512: EVP_sha512()
        }
    }
}
