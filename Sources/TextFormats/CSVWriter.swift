/// Writes RFC 4180 CSV that `CSVReader` reads back to the same fields (through `restored`), and
/// that spreadsheets open as text, never as formulas.
public enum CSVWriter {
    /// One record with its line end. A record of one empty field is written `""`, which a
    /// reader keeps, where an empty line would be skipped.
    /// Every field is `neutralised` first: text from a server (a roster name, an error note)
    /// never reaches a spreadsheet as a formula.
    public static func record(_ fields: [String], lineEnd: String = "\r\n") -> String {
        if fields == [""] { return "\"\"" + lineEnd }
        return fields.map { quote(neutralised($0)) }.joined(separator: ",") + lineEnd
    }

    /// Characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"):
    /// `=`, `+`, `-`, `@`, tab and carriage return, and their full-width forms, which some
    /// spreadsheets fold to the ASCII ones.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}"]

    /// True when `field`, after any leading apostrophes, starts as a formula would.
    static func startsLikeFormula(_ field: String) -> Bool {
        guard let first = field.unicodeScalars.first(where: { $0 != "'" }) else { return false }
        return formulaStarts.contains(first)
    }

    /// The field as a spreadsheet may see it, as OWASP recommends: one that would start a
    /// formula gets a leading apostrophe (shown by no spreadsheet, and read as "this is text"),
    /// and is then quoted as every field is. So that `restored` can tell it from a field that
    /// really starts with apostrophes, a field of apostrophes before such a start gets one more.
    public static func neutralised(_ field: String) -> String {
        startsLikeFormula(field) ? "'" + field : field
    }

    /// The inverse of `neutralised`, for the tools that read their own CSV back (a report's
    /// passwords, a roster exported and imported): `'=1+1` is `=1+1` again, `'Tis` stays.
    public static func restored(_ field: String) -> String {
        guard field.unicodeScalars.first == "'" else { return field }
        let rest = String(field.unicodeScalars.dropFirst())
        return startsLikeFormula(rest) ? rest : field
    }

    /// A field, quoted (quotes doubled) when it holds a comma, quote or line break, has outer
    /// spaces that a spreadsheet would trim, starts with U+FEFF, which would read as a BOM at
    /// the start of a file, or with `sep=`. Anything else is written as it is.
    public static func quote(_ field: String) -> String {
        // A field starting "sep=" is quoted too: as a file's first line, Excel's "sep=;" names the
        // delimiter, and `CSVReader.table` reads it so (found by FuzzCSV).
        let needsQuotes = field.unicodeScalars.first == " " || field.unicodeScalars.last == " " || field.unicodeScalars.first == "\u{FEFF}"
            || field.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || field.utf8.starts(with: "sep=".utf8) || field.utf8.starts(with: "SEP=".utf8)
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
