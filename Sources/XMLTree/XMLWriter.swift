/// Serialization of `XMLElement` trees to XML 1.0 text.
extension XMLElement {
    /// Serializes the element and its subtree; emits `xmlns='…'` only where `namespace` differs
    /// from the parent's (for this element: from `inheritedNamespace`), and `xmlns=''` for an
    /// element without namespace under one with. Names are written as given and must be valid XML names.
    public func serialized(inheritedNamespace: String? = nil) -> String {
        var output = ""
        write(to: &output, inheritedNamespace: inheritedNamespace)
        return output
    }

    /// Appends the serialization to `output` (one buffer for the whole tree: linear time).
    func write(to output: inout String, inheritedNamespace: String?) {
        output += "<"
        output += name
        if namespace != inheritedNamespace {
            output += " xmlns='"
            XMLEscaping.appendAttribute(namespace ?? "", to: &output)
            output += "'"
        }
        writePrefixDeclarations(to: &output)
        for attribute in attributes {
            output += " "
            output += attribute.name
            output += "='"
            XMLEscaping.appendAttribute(attribute.value, to: &output)
            output += "'"
        }
        if children.isEmpty {
            output += "/>"
            return
        }
        output += ">"
        for child in children {
            switch child {
            case .element(let element): element.write(to: &output, inheritedNamespace: namespace)
            case .text(let text): XMLEscaping.appendText(text, to: &output)
            }
        }
        output += "</"
        output += name
        output += ">"
    }

    /// Declares the prefixes of namespaced attributes (`foo:bar` with `namespace` set), once each.
    private func writePrefixDeclarations(to output: inout String) {
        var declared: [Substring] = []
        for attribute in attributes {
            guard let uri = attribute.namespace, let colon = attribute.name.firstIndex(of: ":") else { continue }
            let prefix = attribute.name[..<colon]
            guard !prefix.isEmpty, prefix != "xml", prefix != "xmlns", !declared.contains(prefix) else { continue }
            declared.append(prefix)
            output += " xmlns:"
            output += prefix
            output += "='"
            XMLEscaping.appendAttribute(uri, to: &output)
            output += "'"
        }
    }
}
