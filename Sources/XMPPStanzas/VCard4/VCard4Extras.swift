import XMLTree

/// A vCard4 node's unmapped properties (GENDER, ANNIVERSARY, X-…), kept as one XML document in
/// the vCard cache so that `get --cached --format vcf4` writes what an online `get` writes.
/// Read back verbatim: a second FN that was an extra stays one, where reading the document as a
/// vCard4 would map it.
public struct VCard4Extras: Sendable, Equatable {
    /// The properties, in the order they came.
    public var properties: [XMLElement]

    public init(_ properties: [XMLElement]) { self.properties = properties }

    /// `<vcard xmlns='urn:ietf:params:xml:ns:vcard-4.0'>` holding the properties.
    public var xml: String {
        var v = XMLElement("vcard", namespace: Namespace.vcard4)
        for property in properties { v.append(property) }
        return v.serialized()
    }

    /// Reads what `xml` wrote.
    public init(xml: String) throws(StanzaParseError) {
        let root: XMLElement
        do { root = try parseXMLDocument(xml) } catch { throw .invalidContent("invalid vCard4 XML: \(error)") }
        try root.expect("vcard", namespace: Namespace.vcard4)
        properties = root.elements
    }
}
