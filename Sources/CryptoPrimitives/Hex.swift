/// Base 16 with lowercase digits (RFC 4648 §8), as XEP-0084 and XEP-0153 use for SHA-1 ids.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The lowercase hexadecimal text of `bytes`, two digits per byte.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
