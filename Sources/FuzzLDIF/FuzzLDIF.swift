import FuzzSupport
import TextFormats

/// Fuzz target for `LDIFReader`, which reads the directory exports (`ldapsearch -LLL`) that
/// `xmpp-register batch --format ldif` provisions from.
///
/// The first byte picks small limits (so the limit paths are reached with small inputs); the
/// rest is the file. Invariants checked: reading never crashes; entries start on increasing
/// lines, each attribute on a line after its entry's and after the one before it, within the
/// limits; every entry written back (DN and values in base 64, folded at 76 columns as
/// ldapsearch does) reads in again equal but for line numbers; errors print without raw
/// control characters.
enum FuzzLDIFTarget: FuzzTarget {
    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard let selector = data.first else { return }
        var limits = LDIFLimits()
        limits.maxLineBytes = 8 + Int(selector & 0x0F) * 64
        limits.maxAttributes = 1 + Int(selector >> 4)
        limits.maxEntries = 64
        let bytes = Array(data.dropFirst())
        let entries: [LDIFEntry]
        do throws(LDIFError) {
            entries = try LDIFReader.parse(bytes, limits: limits)
        } catch {
            let shown = error.description
            FuzzReplay.invariant(!shown.unicodeScalars.contains(where: TerminalText.needsEscape), "error shown as \(shown.debugDescription)")
            return
        }
        FuzzReplay.invariant(entries.count <= limits.maxEntries, "\(entries.count) entries, limit \(limits.maxEntries)")
        var previous = 0
        for entry in entries {
            FuzzReplay.invariant(entry.line > previous, "entry lines go \(previous) → \(entry.line)")
            FuzzReplay.invariant(entry.attributes.count <= limits.maxAttributes, "\(entry.attributes.count) attributes on line \(entry.line)")
            var line = entry.line
            for attribute in entry.attributes {
                FuzzReplay.invariant(attribute.line > line, "attribute on line \(attribute.line) after line \(line)")
                line = attribute.line
            }
            previous = line
        }
        var unlimited = LDIFLimits()
        unlimited.maxEntries = limits.maxEntries
        let written = write(entries)
        do throws(LDIFError) {
            let again = try LDIFReader.parse(Array(written.utf8), limits: unlimited)
            FuzzReplay.invariant(strip(again) == strip(entries), "\(entries) written as \(written.debugDescription) reads back as \(again)")
        } catch {
            FuzzReplay.invariant(false, "\(entries) written as \(written.debugDescription) is refused: \(error)")
        }
    }

    /// The entries as LDIF: `dn::` and `attr;opts::` in base 64, folded at 76 columns.
    static func write(_ entries: [LDIFEntry]) -> String {
        var out = "version: 1\n"
        for entry in entries {
            out += "\n"
            out += fold("dn:: " + base64(Array(entry.dn.utf8)))
            for a in entry.attributes {
                out += fold(([a.type] + a.options).joined(separator: ";") + ":: " + base64(a.value))
            }
        }
        return out
    }

    private static func fold(_ line: String) -> String {
        var out = ""
        var column = 0
        for ch in line {
            if column == 76 { out += "\n "; column = 1 }
            out.append(ch)
            column += 1
        }
        return out + "\n"
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var chunk = 0
            for k in 0..<3 { chunk = chunk << 8 | (k < n ? Int(bytes[i + k]) : 0) }
            for k in 0..<4 { out.append(k <= n ? alphabet[(chunk >> (18 - 6 * k)) & 63] : "=") }
            i += 3
        }
        return out
    }

    private static func strip(_ entries: [LDIFEntry]) -> [LDIFEntry] {
        entries.map { e in
            LDIFEntry(line: 0, dn: e.dn, attributes: e.attributes.map { LDIFAttribute(type: $0.type, options: $0.options, value: $0.value, line: 0) })
        }
    }
}
