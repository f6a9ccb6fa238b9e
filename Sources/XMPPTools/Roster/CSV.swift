/// RFC 4180 CSV: quoted fields with doubled quotes, commas and line breaks inside quotes, LF or CRLF rows.
enum CSV {
    /// Largest number of rows read.
    static let maxRows = 200_000

    /// Splits text into rows of fields.
    static func rows(_ text: String) throws(ToolFailure) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = iterator.next()
        var line = 1
        func endRow() { row.append(field); rows.append(row); row = []; field = "" }
        while let c = pending {
            pending = iterator.next()
            if quoted {
                if c == "\"" {
                    if pending == "\"" { field.unicodeScalars.append("\""); pending = iterator.next() } else { quoted = false }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where field.isEmpty: quoted = true
            case ",": row.append(field); field = ""
            case "\r" where pending == "\n": continue
            case "\n", "\r":
                endRow()
                line += 1
                guard rows.count <= maxRows else { throw ToolFailure(.badInput, "the CSV has more than \(maxRows) rows") }
            default: field.unicodeScalars.append(c)
            }
        }
        if quoted { throw ToolFailure(.badInput, "invalid CSV: a quoted field starting before line \(line) is not closed") }
        if !field.isEmpty || !row.isEmpty { endRow() }
        return rows
    }

    /// A field quoted when it holds a comma, quote, line break or outer spaces.
    static func quote(_ field: String) -> String {
        let needs = field.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" } || field.first == " " || field.last == " "
        guard needs else { return field }
        return "\"" + field.replacingAll("\"", with: "\"\"") + "\""
    }
}
