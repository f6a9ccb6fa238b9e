import XMLTree

/// XEP-0060 `<item/>`: one published item, with its id and its payload element.
public struct PubSubItem: Sendable, Equatable {
    /// The ItemID; nil asks the service to choose one (publish) or was omitted.
    public var id: String?
    /// The payload, e.g. `<metadata xmlns='urn:xmpp:avatar:metadata'/>`; nil in requests by id.
    public var payload: XMLElement?
    /// The `publisher` attribute a service may stamp (XEP-0060 §7.1.2.1).
    public var publisher: String?

    /// Builds an item.
    public init(id: String? = nil, payload: XMLElement? = nil, publisher: String? = nil) {
        self.id = id
        self.payload = payload
        self.publisher = publisher
    }

    /// Reads an `<item/>` in `namespace` (pubsub or pubsub#event).
    public init(element: XMLElement, namespace: String = Namespace.pubsub) throws(StanzaParseError) {
        try element.expect("item", namespace: namespace)
        guard element.elements.count <= 1 else {
            throw .invalidContent("a pubsub <item/> carries at most one payload element")
        }
        id = element[attribute: "id"]
        publisher = element[attribute: "publisher"]
        payload = element.elements.first
    }

    /// The `<item/>` element in `namespace`.
    public func element(namespace: String = Namespace.pubsub) -> XMLElement {
        var e = XMLElement("item", namespace: namespace)
        if let id { e[attribute: "id"] = id }
        if let publisher { e[attribute: "publisher"] = publisher }
        if let payload { e.append(payload) }
        return e
    }
}

/// A node configuration as `pubsub#field → value` pairs, sent as a XEP-0004 submit form with
/// the given FORM_TYPE (publish-options, XEP-0060 §7.1.5; node_config, §8.2.4).
public enum PubSubForm {
    /// The `<x type='submit'/>` with FORM_TYPE first and the fields sorted by name.
    public static func submit(formType: String, fields: [String: String]) -> XMLElement {
        var x = XMLElement("x", namespace: Namespace.dataForms, attributes: ["type": "submit"])
        x.append(field("FORM_TYPE", formType, type: "hidden"))
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { x.append(field(name, value, type: nil)) }
        return x
    }

    /// The fields of a submit form other than FORM_TYPE (first value of each); throws when
    /// `element` is not a data form of `formType`.
    public static func fields(of element: XMLElement, formType: String) throws(StanzaParseError) -> [String: String] {
        let form = try DataForm(element: element)
        guard form.formType == formType else {
            throw .invalidContent("expected a \(formType) form, got \(form.formType ?? "one without FORM_TYPE")")
        }
        var result: [String: String] = [:]
        for f in form.fields {
            guard let name = f.name, name != "FORM_TYPE" else { continue }
            result[name] = f.values.first ?? ""
        }
        return result
    }

    private static func field(_ name: String, _ value: String, type: String?) -> XMLElement {
        var attributes = ["var": name]
        if let type { attributes["type"] = type }
        return XMLElement("field", namespace: Namespace.dataForms, attributes: attributes, children: [
            .element(XMLElement("value", namespace: Namespace.dataForms, children: [.text(value)])),
        ])
    }
}
