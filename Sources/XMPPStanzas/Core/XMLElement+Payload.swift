import XMLTree

/// The checks every payload reader starts with: the element is the one it reads, and the
/// attributes its XEP requires are there. Failures are the `StanzaParseError` that names them.
extension XMLElement {
    /// Checks that this is `<name/>` in any namespace (the stream's own stanzas and elements a
    /// caller has already found by namespace); otherwise `.unexpectedElement`.
    func expect(_ name: String) throws(StanzaParseError) {
        guard self.name == name else { throw .unexpectedElement(expected: name, got: self.name) }
    }

    /// Checks that this is `<name xmlns='namespace'/>`; otherwise `.unexpectedElement`.
    func expect(_ name: String, namespace: String) throws(StanzaParseError) {
        guard self.name == name, self.namespace == namespace else {
            throw .unexpectedElement(expected: name, got: self.name)
        }
    }

    /// The value of the required `attribute`; its absence (or, with `nonEmpty`, an empty value)
    /// is `.missingAttribute` naming this element.
    func required(_ attribute: String, nonEmpty: Bool = false) throws(StanzaParseError) -> String {
        guard let value = self[attribute: attribute], !(nonEmpty && value.isEmpty) else {
            throw .missingAttribute(element: name, attribute: attribute)
        }
        return value
    }
}
