/// Writes RFC 4180 CSV that `CSVReader` (and spreadsheets) read back to the same fields.
public enum CSVWriter {
    /// One record with its line end. A record of one empty field is written `""`, which a
    /// reader keeps, where an empty line would be skipped.
    public static func record(_ fields: [String], lineEnd: String = "\r\n") -> String {
        if fields == [""] { return "\"\"" + lineEnd }
        return fields.map(quote).joined(separator: ",") + lineEnd
    }

    /// A field, quoted (quotes doubled) when it holds a comma, quote or line break, has outer
    /// spaces that a spreadsheet would trim, or starts with U+FEFF, which would read as a BOM
    /// at the start of a file. Anything else is written as it is.
    public static func quote(_ field: String) -> String {
        let needsQuotes = field.unicodeScalars.first == " " || field.unicodeScalars.last == " " || field.unicodeScalars.first == "\u{FEFF}"
            || field.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else { return field }
        // Scalars, not Characters: a quote followed by a combining mark is one Character.
        var out = "\""
        for scalar in field.unicodeScalars {
            if scalar == "\"" { out.unicodeScalars.append(scalar) }
            out.unicodeScalars.append(scalar)
        }
        out.unicodeScalars.append("\"")
        return out
    }
}
