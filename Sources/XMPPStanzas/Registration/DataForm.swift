import XMLTree

/// A XEP-0004 data form (`<x xmlns='jabber:x:data'/>`).
public struct DataForm: Sendable, Equatable {
    /// One form field.
    public struct Field: Sendable, Equatable {
        /// The field's `var` name; nil for fixed (display-only) fields.
        public var name: String?
        /// The field type (text-single, text-private, hidden, list-single, boolean, fixed, …).
        public var type: String
        /// Human label.
        public var label: String?
        /// Marked `<required/>`.
        public var required: Bool
        /// Current or default values.
        public var values: [String]
        /// Choices for list fields, as (label, value).
        public var options: [Option]
        /// The field carries a XEP-0221 media element (a CAPTCHA image or audio).
        public var hasMedia: Bool

        /// Builds a field.
        public init(name: String?, type: String = "text-single", label: String? = nil, required: Bool = false,
                    values: [String] = [], options: [Option] = [], hasMedia: Bool = false) {
            self.name = name
            self.type = type
            self.label = label
            self.required = required
            self.values = values
            self.options = options
            self.hasMedia = hasMedia
        }
    }

    /// A list option.
    public struct Option: Sendable, Equatable {
        /// Shown to people.
        public var label: String?
        /// Sent back.
        public var value: String
    }

    /// form, submit, cancel or result.
    public var type: String
    /// Title.
    public var title: String?
    /// Instructions.
    public var instructions: [String]
    /// Fields, in order.
    public var fields: [Field]

    /// Builds a form.
    public init(type: String, title: String? = nil, instructions: [String] = [], fields: [Field]) {
        self.type = type
        self.title = title
        self.instructions = instructions
        self.fields = fields
    }

    /// Reads an `<x xmlns='jabber:x:data'/>` element.
    public init(element: XMLElement) throws(StanzaParseError) {
        guard element.name == "x", element.namespace == Namespace.dataForms else {
            throw .unexpectedElement(expected: "x", got: element.name)
        }
        type = element[attribute: "type"] ?? "form"
        let t = element.child("title", namespace: Namespace.dataForms)?.text
        title = t?.isEmpty == false ? t : nil
        instructions = element.children("instructions", namespace: Namespace.dataForms).map(\.text)
        fields = element.children("field", namespace: Namespace.dataForms).map { f in
            Field(
                name: f[attribute: "var"],
                type: f[attribute: "type"] ?? "text-single",
                label: f[attribute: "label"],
                required: f.child("required", namespace: Namespace.dataForms) != nil,
                values: f.children("value", namespace: Namespace.dataForms).map(\.text),
                options: f.children("option", namespace: Namespace.dataForms).map {
                    Option(label: $0[attribute: "label"], value: $0.child("value", namespace: Namespace.dataForms)?.text ?? "")
                },
                hasMedia: f.child("media") != nil)
        }
    }

    /// The hidden FORM_TYPE value, if any.
    public var formType: String? {
        fields.first { $0.name == "FORM_TYPE" }?.values.first
    }

    /// The field named `name`.
    public func field(_ name: String) -> Field? { fields.first { $0.name == name } }

    /// The element to send.
    public var element: XMLElement {
        var x = XMLElement("x", namespace: Namespace.dataForms, attributes: ["type": type])
        if let title { x.append(XMLElement("title", namespace: Namespace.dataForms, children: [.text(title)])) }
        for field in fields {
            var attributes: [String: String] = [:]
            if let name = field.name { attributes["var"] = name }
            if type != "submit" { attributes["type"] = field.type }
            var f = XMLElement("field", namespace: Namespace.dataForms, attributes: attributes)
            for v in field.values { f.append(XMLElement("value", namespace: Namespace.dataForms, children: [.text(v)])) }
            x.append(f)
        }
        return x
    }
}
