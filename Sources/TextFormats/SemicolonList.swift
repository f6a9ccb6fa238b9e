/// A list in one text field, separated by ';', with '\;' and '\\' for a literal ';' and '\':
/// roster groups in CSV (`Friends;Work\;Team`, also the batch's `groups` and `contacts` columns) and the
/// parts of `xmpp-vcard set --address`.
public enum SemicolonList {
    /// `a;b\;c` → ["a", "b;c"]; empty items are kept, and a lone trailing '\' stays itself.
    /// Scalars, not Characters: a combining mark after ';' or '\\' glues the two into one
    /// Character, yet every byte-level reader of the CSV (a spreadsheet's split, Python) sees
    /// the separator.
    public static func split(_ text: String) -> [String] {
        var items: [String] = []
        var current = String.UnicodeScalarView()
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                current.append(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == ";" {
                items.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        if escaped { current.append("\\") }
        items.append(String(current))
        return items
    }

    /// One item escaped for `split`.
    public static func escape(_ item: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in item.unicodeScalars {
            if scalar == "\\" || scalar == ";" { out.append("\\") }
            out.append(scalar)
        }
        return String(out)
    }
}
