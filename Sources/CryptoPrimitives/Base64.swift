/// Base 64 with the standard alphabet and padding (RFC 4648 §4), strict on decoding.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Value of each ASCII byte in the alphabet, or 0xFF.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The padded base 64 text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            out += [sextet(chunk, 18), sextet(chunk, 12), sextet(chunk, 6), sextet(chunk, 0)]
            index += 3
        }
        switch input.count - index {
        case 1:
            let chunk = UInt32(input[index]) << 16
            out += [sextet(chunk, 18), sextet(chunk, 12), UInt8(ascii: "="), UInt8(ascii: "=")]
        case 2:
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            out += [sextet(chunk, 18), sextet(chunk, 12), sextet(chunk, 6), UInt8(ascii: "=")]
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `s` encodes, or nil unless `s` is canonical padded base 64: length a multiple of 4,
    /// only alphabet characters, `=` only as final padding, unused trailing bits zero.
    /// With `ignoringWhitespace`, spaces, tabs, CR and LF anywhere are skipped first (vCard PHOTO).
    public static func decode(_ s: some StringProtocol, ignoringWhitespace: Bool = false) -> [UInt8]? {
        var text = Array(s.utf8)
        if ignoringWhitespace {
            text.removeAll { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        }
        guard text.count % 4 == 0 else { return nil }
        var padding = 0
        if text.last == UInt8(ascii: "=") {
            padding = text[text.count - 2] == UInt8(ascii: "=") ? 2 : 1
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var index = 0
        while index < text.count {
            let isLast = index + 4 == text.count
            var chunk: UInt32 = 0
            for offset in 0..<4 {
                let byte = text[index + offset]
                if isLast && offset >= 4 - padding {
                    chunk <<= 6
                    continue
                }
                let value = values[Int(byte)]
                guard value != 0xFF else { return nil }
                chunk = chunk << 6 | UInt32(value)
            }
            out.append(UInt8(truncatingIfNeeded: chunk >> 16))
            if !isLast || padding < 2 { out.append(UInt8(truncatingIfNeeded: chunk >> 8)) }
            if !isLast || padding < 1 { out.append(UInt8(truncatingIfNeeded: chunk)) }
            if isLast {
                // Non-canonical encodings carry data in the bits padding discards.
                if padding == 1 && chunk & 0xFF != 0 { return nil }
                if padding == 2 && chunk & 0xFFFF != 0 { return nil }
            }
            index += 4
        }
        return out
    }

    private static func sextet(_ chunk: UInt32, _ shift: UInt32) -> UInt8 {
        alphabet[Int((chunk >> shift) & 0x3F)]
    }
}
