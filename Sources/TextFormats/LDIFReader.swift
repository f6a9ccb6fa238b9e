/// One attribute value of an LDIF entry: `cn;lang-en: Babs` is type `cn`, options `["lang-en"]`.
public struct LDIFAttribute: Sendable, Equatable {
    /// The attribute type as written (`cn`, `jpegPhoto`, or an OID); compared case-insensitively.
    public var type: String
    /// The options after `;` (`lang-en`, `binary`), as written.
    public var options: [String]
    /// The value's bytes: a `::` value decoded from base 64 (binary, or text in UTF-8).
    public var value: [UInt8]
    /// 1-based physical line where the attribute begins.
    public var line: Int

    public init(type: String, options: [String] = [], value: [UInt8], line: Int) {
        self.type = type
        self.options = options
        self.value = value
        self.line = line
    }
}

/// One LDIF content record: `dn:` and the attribute values that follow it, in order.
public struct LDIFEntry: Sendable, Equatable {
    /// 1-based physical line of its `dn:` line.
    public var line: Int
    /// The distinguished name, as written (a `dn::` one decoded).
    public var dn: String
    /// Every attribute value, in the order written; a multi-valued attribute appears once per value.
    public var attributes: [LDIFAttribute]

    public init(line: Int, dn: String, attributes: [LDIFAttribute]) {
        self.line = line
        self.dn = dn
        self.attributes = attributes
    }

    /// The values of `description` (`cn`, `cn;lang-de`), types and options compared ignoring case.
    /// With options, the values with exactly those options. Without, the values with none; when
    /// there are none, those of the type with any options (`jpegPhoto;binary`, `cn;lang-en`), as
    /// LDAP returns subtypes to a request for the type.
    public func values(_ description: String) -> [[UInt8]] {
        let parts = description.split(separator: ";", omittingEmptySubsequences: false).map { $0.lowercased() }
        guard let type = parts.first else { return [] }
        let wanted = Set(parts.dropFirst())
        let ofType = attributes.filter { $0.type.lowercased() == type }
        if !wanted.isEmpty { return ofType.filter { Set($0.options.map { $0.lowercased() }) == wanted }.map(\.value) }
        let plain = ofType.filter { $0.options.isEmpty }
        return (plain.isEmpty ? ofType : plain).map(\.value)
    }
}

/// Size limits for LDIF input, so a hostile or mistaken file cannot exhaust memory.
public struct LDIFLimits: Sendable {
    /// Largest input, in bytes (as `CSVLimits`).
    public var maxBytes = 256 << 20
    /// Largest logical (unfolded) line, in bytes: a base-64 photo of 6 MiB fits.
    public var maxLineBytes = 8 << 20
    /// Most attribute values in one entry.
    public var maxAttributes = 4096
    /// Most entries.
    public var maxEntries = 2_000_000

    public init() {}
}

/// Why an LDIF file cannot be read; each case names the physical line.
public enum LDIFError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLarge(limit: Int)
    /// A line longer than the limit once its continuation lines are joined.
    case lineTooLong(line: Int, limit: Int)
    case tooManyAttributes(line: Int, limit: Int)
    case tooManyEntries(limit: Int)
    /// A line starting with a space (a continuation) with no line before it to continue.
    case continuationWithoutLine(line: Int)
    /// A line without the `:` after its attribute name.
    case missingColon(line: Int)
    /// An attribute description that is neither a name nor an OID with options.
    case badAttributeName(line: Int, name: String)
    /// A `::` value that is not base 64.
    case badBase64(line: Int)
    /// A `:<` value: LDIF's reference to a URL, which this reader does not fetch.
    case urlValue(line: Int, attribute: String)
    /// A record that does not start with `dn:`.
    case missingDN(line: Int)
    /// A DN that is not UTF-8 text.
    case invalidDN(line: Int)
    /// `version:` other than 1, or not on the first line.
    case badVersion(line: Int)
    /// A change record (`changetype:`, `control:`), not a directory's content.
    case changeRecord(line: Int)
    /// A NUL byte or a lone CR in a line, which no LDIF text holds (binary values are base 64).
    case controlByte(line: Int)
    /// The input ends inside a line (no line end after it) or inside an entry (no blank line
    /// after its last one, which ldapsearch and slapcat always write): an export cut short.
    case cut(line: Int, insideLine: Bool)

    public var description: String {
        switch self {
        case .tooLarge(let l): return "the LDIF is larger than \(l >> 20) MiB"
        case .lineTooLong(let n, let l): return "line \(n): a line longer than \(l >> 20) MiB with its continuations"
        case .tooManyAttributes(let n, let l): return "line \(n): an entry with more than \(l) attribute values"
        case .tooManyEntries(let l): return "more than \(l) entries"
        case .continuationWithoutLine(let n):
            return "line \(n): starts with a space (a continuation line) but continues no line (a blank line before it?)"
        case .missingColon(let n): return "line \(n): not 'attribute: value' (no ':' after the attribute name)"
        case .badAttributeName(let n, let name): return "line \(n): '\(TerminalText.escaped(name))' is not an attribute name"
        case .badBase64(let n): return "line \(n): the value after '::' is not base 64"
        case .urlValue(let n, let a):
            return "line \(n): \(TerminalText.escaped(a)):< refers to a URL, which is not read; "
                + "give the value itself (ldapsearch writes it so unless told -t)"
        case .missingDN(let n): return "line \(n): a record must start with 'dn:' (records are separated by blank lines)"
        case .invalidDN(let n): return "line \(n): the DN is not UTF-8 text"
        case .badVersion(let n): return "line \(n): only 'version: 1', on the first line, is LDIF (RFC 2849)"
        case .changeRecord(let n):
            return "line \(n): a change record (changetype:), not a directory's entries; give entries as ldapsearch -LLL writes them"
        case .controlByte(let n): return "line \(n): a NUL or carriage-return byte in a value (is this LDIF?)"
        case .cut(let n, let insideLine):
            return "line \(n): the LDIF ends " + (insideLine ? "inside this line (no line end after it)" : "inside the entry "
                + "of this line (no blank line after it, as ldapsearch and slapcat end every entry)")
                + ": the export looks cut short, and nothing of it was used (a whole file written by hand: end it with a blank line)"
        }
    }
}

/// LDIF content (RFC 2849) as `ldapsearch -LLL` (and `slapcat`) writes it: records of a `dn:`
/// line and `attribute: value` lines, separated by blank lines; a line starting with one space
/// continues the one before (joined on bytes, so a fold inside a UTF-8 sequence is fine);
/// `attr:: BASE64` values; `#` comment lines (folded or not); an optional `version: 1` first;
/// LF or CRLF line ends. `attr:< URL` values and change records are refused. Total: every input
/// gives entries or an `LDIFError` naming the line, in time linear in its size.
public enum LDIFReader {
    private static let space = UInt8(ascii: " "), colon = UInt8(ascii: ":"), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// Parses all entries of `bytes`. With `requireEnd` (a directory export, which ldapsearch and
    /// slapcat end with a line end after a blank line), input that stops inside a line or inside
    /// an entry is refused as cut (`LDIFError.cut`); RFC 2849 itself needs no blank line after the
    /// last entry, so a hand-written file may lack one without it.
    public static func parse(_ bytes: [UInt8], limits: LDIFLimits = LDIFLimits(), requireEnd: Bool = false) throws(LDIFError) -> [LDIFEntry] {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        var builder = Builder(limits: limits)
        var logical: [UInt8] = []
        var logicalLine = 0
        var inComment = false
        var haveLine = false
        var line = 0
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count {
            line += 1
            var end = i
            while end < bytes.count && bytes[end] != lf { end += 1 }
            let next = end + 1
            if end > i && bytes[end - 1] == cr { end -= 1 }
            if i < end && bytes[i] == space {
                // A continuation: its bytes after the one space extend the logical line.
                guard haveLine else { throw .continuationWithoutLine(line: line) }
                if !inComment {
                    guard logical.count + (end - i - 1) <= limits.maxLineBytes else {
                        throw .lineTooLong(line: logicalLine, limit: limits.maxLineBytes)
                    }
                    logical.append(contentsOf: bytes[(i + 1)..<end])
                }
            } else {
                if haveLine && !inComment { try builder.add(logical, line: logicalLine) }
                logical.removeAll(keepingCapacity: true)
                if i == end {
                    haveLine = false
                    inComment = false
                    builder.endRecord()
                } else {
                    haveLine = true
                    logicalLine = line
                    inComment = bytes[i] == UInt8(ascii: "#")
                    if !inComment {
                        guard end - i <= limits.maxLineBytes else { throw .lineTooLong(line: line, limit: limits.maxLineBytes) }
                        logical.append(contentsOf: bytes[i..<end])
                    }
                }
            }
            i = next
        }
        if haveLine && !inComment { try builder.add(logical, line: logicalLine) }
        // A file cut short would otherwise lose its last entries silently, or give a half-written
        // one (`uid: s5` of `uid: s57`): an export ends with a line end, after a blank line.
        if requireEnd && bytes.count > (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0) && bytes.last != lf {
            throw .cut(line: line, insideLine: true)
        }
        if requireEnd, let open = builder.current { throw .cut(line: open.line, insideLine: false) }
        builder.endRecord()
        return builder.entries
    }

    /// Gathers logical lines into entries.
    private struct Builder {
        let limits: LDIFLimits
        var entries: [LDIFEntry] = []
        var current: LDIFEntry?
        /// No record or version line seen yet.
        var atStart = true

        init(limits: LDIFLimits) { self.limits = limits }

        mutating func endRecord() {
            if let current { entries.append(current) }
            current = nil
        }

        mutating func add(_ text: [UInt8], line: Int) throws(LDIFError) {
            if text.contains(0) || text.contains(cr) { throw .controlByte(line: line) }
            guard let colonAt = text.firstIndex(of: colon) else { throw .missingColon(line: line) }
            let name = String(decoding: text[..<colonAt], as: UTF8.self)
            let (type, options) = try LDIFReader.description(name, line: line)
            let value = try LDIFReader.value(text[(colonAt + 1)...], line: line, attribute: name)
            let lower = type.lowercased()
            if atStart && lower == "version" && current == nil {
                atStart = false
                guard options.isEmpty, value == Array("1".utf8) else { throw .badVersion(line: line) }
                return
            }
            atStart = false
            guard var entry = current else {
                guard lower == "dn", options.isEmpty else { throw lower == "version" ? .badVersion(line: line) : .missingDN(line: line) }
                guard let dn = String(validating: value, as: UTF8.self) else { throw .invalidDN(line: line) }
                guard entries.count < limits.maxEntries else { throw .tooManyEntries(limit: limits.maxEntries) }
                current = LDIFEntry(line: line, dn: dn, attributes: [])
                return
            }
            if entry.attributes.isEmpty && (lower == "changetype" || lower == "control") { throw .changeRecord(line: line) }
            guard entry.attributes.count < limits.maxAttributes else { throw .tooManyAttributes(line: entry.line, limit: limits.maxAttributes) }
            current = nil  // keeps the entry's arrays uniquely referenced while appending
            entry.attributes.append(LDIFAttribute(type: type, options: options, value: value, line: line))
            current = entry
        }
    }

    /// True for an attribute description LDIF may hold: `cn`, `jpegPhoto;binary`, `2.5.4.3`.
    public static func isAttributeDescription(_ text: String) -> Bool {
        (try? description(text, line: 0)) != nil
    }

    /// `cn;lang-en` → ("cn", ["lang-en"]); a type is a name (a letter, then letters, digits and
    /// hyphens) or a numeric OID, an option letters, digits and hyphens.
    static func description(_ name: String, line: Int) throws(LDIFError) -> (String, [String]) {
        let parts = name.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard let type = parts.first else { throw .badAttributeName(line: line, name: name) }
        let isKeyChar = { (c: Unicode.Scalar) in c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-") }
        let isName = type.unicodeScalars.first.map { $0.isASCII && $0.properties.isAlphabetic } ?? false
            && type.unicodeScalars.allSatisfy(isKeyChar)
        let isOID = !type.isEmpty && type.split(separator: ".", omittingEmptySubsequences: false)
            .allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        guard isName || isOID else { throw .badAttributeName(line: line, name: name) }
        let options = Array(parts.dropFirst())
        guard options.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(isKeyChar) }) else {
            throw .badAttributeName(line: line, name: name)
        }
        return (type, options)
    }

    /// The value after the attribute's `:`: `: text`, `:: base64` or `:< URL` (refused).
    static func value(_ rest: ArraySlice<UInt8>, line: Int, attribute: String) throws(LDIFError) -> [UInt8] {
        var rest = rest
        let kind = rest.first
        if kind == colon || kind == UInt8(ascii: "<") { rest = rest.dropFirst() }
        while rest.first == space { rest = rest.dropFirst() }
        if kind == UInt8(ascii: "<") { throw .urlValue(line: line, attribute: attribute) }
        if kind == colon {
            // Trailing spaces are not part of base 64; ldapsearch writes none.
            while rest.last == space { rest = rest.dropLast() }
            guard let decoded = LDIFBase64.decode(rest) else { throw .badBase64(line: line) }
            return decoded
        }
        return Array(rest)
    }
}

/// RFC 4648 base 64 with padding, as LDIF's `::` values carry it. (TextFormats has no
/// dependencies; CryptoPrimitives' Base64 sits above OpenSSL.)
enum LDIFBase64 {
    /// The bytes, or nil for anything but whole padded quads of the standard alphabet.
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for (offset, byte) in text.enumerated() {
            if byte == UInt8(ascii: "=") {
                // Only the last one or two characters may be padding.
                guard offset >= text.count - 2 else { return nil }
                padding += 1
                continue
            }
            guard padding == 0, let sextet = sextet(byte) else { return nil }
            accumulator = accumulator << 6 | UInt32(sextet)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return padding <= 2 ? out : nil
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
