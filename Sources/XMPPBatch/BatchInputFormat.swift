import TextFormats

/// `--format`: what the batch's input is.
public enum BatchInputFormat: String, Sendable, CaseIterable {
    /// RFC 4180 CSV with a header row (and the spreadsheets' variants `CSVReader.table` reads).
    case csv
    /// RFC 2849 LDIF, as `ldapsearch -LLL` writes a directory's entries, read through `--map`.
    case ldif

    /// The format of the input at `path` (`-` for standard input) holding `bytes`, when
    /// `--format` is not given: LDIF when the name ends in `.ldif`, or when its first line that
    /// is neither blank nor a `#` comment starts with `dn:` or `version:` (as every LDIF file
    /// does, and no CSV header would); CSV otherwise.
    public static func detect(path: String, bytes: [UInt8]) -> BatchInputFormat {
        detect(path: path, start: bytes, complete: true) ?? .csv
    }

    /// `detect` on the first bytes of the input (`complete`: all of it); nil when they do not
    /// yet hold the line that decides.
    public static func detect(path: String, start bytes: [UInt8], complete: Bool) -> BatchInputFormat? {
        if path.lowercased().hasSuffix(".ldif") { return .ldif }
        if !complete && bytes.count < 3 { return nil }
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count {
            var end = i
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let line = bytes[i..<end]
            // A line the bytes cut short decides only once its first 8 bytes are known and it is no blank line.
            if end == bytes.count && !complete && (line.count < 8 || line.allSatisfy({ $0 == 0x0D })) { return nil }
            i = end + 1
            if line.isEmpty || line == [0x0D] || line.first == UInt8(ascii: "#") || line.first == UInt8(ascii: " ") { continue }
            let start = String(decoding: line.prefix(8), as: UTF8.self).lowercased()
            return start.hasPrefix("dn:") || start.hasPrefix("version:") ? .ldif : .csv
        }
        return complete ? .csv : nil
    }
}

extension BatchSheet {
    /// An LDIF input as a table: its entries through `map` (with the map's notes on them).
    static func table(_ input: [UInt8], name: String, map: DirectoryMap) throws(BatchError) -> (CSVTable?, notes: [String]) {
        let entries: [LDIFEntry]
        // An export cut short must not pass for a smaller directory: sync would remove the rest.
        do { entries = try LDIFReader.parse(input, requireEnd: true) } catch { throw .invalidCSV("\(name): \(error)") }
        do throws(BatchError) { return (try map.table(entries), map.notes(entries)) } catch {
            if case .invalidCSV(let message) = error { throw .invalidCSV("\(name): \(message)") }
            throw error
        }
    }
}

extension DirectoryMap {
    /// The map to read `bytes` (from `path`, `-` for standard input) with: nil for CSV. `format`
    /// is `--format` (nil: detected), `map` is `--map` (nil: `inetOrgPerson`), which only LDIF takes.
    public static func forInput(format: BatchInputFormat?, map: String?, path: String, bytes: [UInt8]) throws(BatchError) -> DirectoryMap? {
        switch format ?? BatchInputFormat.detect(path: path, bytes: bytes) {
        case .ldif: return try DirectoryMap(map ?? DirectoryMap.inetOrgPerson)
        case .csv:
            guard map == nil else {
                throw .badHeader("--map reads LDIF, and \(path == "-" ? "standard input" : path) is CSV"
                    + (format == nil ? " (it does not start with dn:); give --format ldif" : ""))
            }
            return nil
        }
    }
}
