import XMLTree

/// Elements a card keeps verbatim (`extras`), as people read them and as comparisons see them.
extension VCard {
    /// One line for an element: a leaf's text; a flag by its name; parts as `NAME=value`,
    /// separated by "; "; Base64 by its length; an embedded vCard by its parts in brackets.
    /// `<GEO><LAT>1.5</LAT><LON>2</LON></GEO>` is `LAT=1.5; LON=2`.
    public static func summary(of e: XMLElement) -> String { summary(of: e, depth: 0) }

    private static func summary(of e: XMLElement, depth: Int) -> String {
        let children = e.elements
        guard !children.isEmpty else { return e.text.isEmpty ? e.name : e.text }
        guard depth < 4 else { return "…" }
        return children.map { c -> String in
            if c.elements.isEmpty && isBlank(c.text) { return c.name }
            if c.name == "BINVAL" { return "BINVAL=(\(compactText(c.text).utf8.count) characters of Base64)" }
            if c.elements.isEmpty { return c.name + "=" + c.text }
            return c.name + "(" + summary(of: c, depth: depth + 1) + ")"
        }.joined(separator: "; ")
    }

    /// `e` as comparisons see it: whitespace-only text between child elements (indentation a
    /// server adds) left out, Base64 in `BINVAL` without its line breaks, and the children in
    /// name order (ejabberd 23.01 sends `<GEO><LON/><LAT/></GEO>` back for `<GEO><LAT/><LON/></GEO>`);
    /// children of one name (LABEL's LINEs) keep their order.
    static func comparable(_ e: XMLElement) -> XMLElement {
        var out = e
        if e.name == "BINVAL" {
            out.children = e.children.map { node in
                if case .text(let t) = node { return .text(compactText(t)) }
                return node
            }
            return out
        }
        guard !e.elements.isEmpty else { return out }
        out.children = e.children.compactMap { node in
            switch node {
            case .element(let c): return .element(comparable(c))
            case .text(let t): return isBlank(t) ? nil : node
            }
        }
        guard out.children.allSatisfy({ $0.element != nil }) else { return out }  // mixed content: order is content
        out.children = out.children.enumerated().sorted { a, b in
            let (x, y) = (a.element.element?.name ?? "", b.element.element?.name ?? "")
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
        return out
    }

    static func compactText(_ s: String) -> String { String(s.unicodeScalars.filter { !isXMLSpace($0) }) }
}
