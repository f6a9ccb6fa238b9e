/// A list in one text field, separated by ';', with '\;' and '\\' for a literal ';' and '\':
/// roster groups in CSV (`Friends;Work\;Team`, also the batch's `groups` and `contacts` columns) and the
/// parts of `xmpp-vcard set --address`.
public enum SemicolonList {
    /// `a;b\;c` → ["a", "b;c"]; empty items are kept, and a lone trailing '\' stays itself.
    public static func split(_ text: String) -> [String] {
        var items: [String] = []
        var current = ""
        var escaped = false
        for ch in text {
            if escaped {
                current.append(ch)
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else if ch == ";" {
                items.append(current)
                current = ""
            } else {
                current.append(ch)
            }
        }
        if escaped { current.append("\\") }
        items.append(current)
        return items
    }

    /// One item escaped for `split`.
    public static func escape(_ item: String) -> String {
        var out = ""
        for ch in item {
            if ch == "\\" || ch == ";" { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}
