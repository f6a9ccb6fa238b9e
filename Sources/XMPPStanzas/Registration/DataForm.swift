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
        /// The `<desc/>` text: what the field is for, longer than its label.
        public var desc: String?

        /// Builds a field.
        public init(name: String?, type: String = "text-single", label: String? = nil, required: Bool = false,
                    values: [String] = [], options: [Option] = [], hasMedia: Bool = false, desc: String? = nil) {
            self.name = name
            self.type = type
            self.label = label
            self.required = required
            self.values = values
            self.options = options
            self.hasMedia = hasMedia
            self.desc = desc
        }

        /// Reads one `<field/>`.
        init(element f: XMLElement) {
            let d = f.child("desc", namespace: Namespace.dataForms)?.text
            self.init(
                name: f[attribute: "var"],
                type: f[attribute: "type"] ?? "text-single",
                label: f[attribute: "label"],
                required: f.child("required", namespace: Namespace.dataForms) != nil,
                values: f.children("value", namespace: Namespace.dataForms).map(\.text),
                options: f.children("option", namespace: Namespace.dataForms).map {
                    Option(label: $0[attribute: "label"], value: $0.child("value", namespace: Namespace.dataForms)?.text ?? "")
                },
                hasMedia: f.child("media") != nil,
                desc: d?.isEmpty == false ? d : nil)
        }
    }

    /// A list option.
    public struct Option: Sendable, Equatable {
        /// Shown to people.
        public var label: String?
        /// Sent back.
        public var value: String

        /// Builds an option.
        public init(label: String? = nil, value: String) {
            self.label = label
            self.value = value
        }
    }

    /// form, submit, cancel or result.
    public var type: String
    /// Title.
    public var title: String?
    /// Instructions.
    public var instructions: [String]
    /// Fields, in order.
    public var fields: [Field]
    /// A result table's column headings (`<reported/>`), empty for other forms.
    public var reported: [Field]
    /// A result table's rows (`<item/>`), each its fields.
    public var items: [[Field]]

    /// Builds a form.
    public init(type: String, title: String? = nil, instructions: [String] = [], fields: [Field],
                reported: [Field] = [], items: [[Field]] = []) {
        self.type = type
        self.title = title
        self.instructions = instructions
        self.fields = fields
        self.reported = reported
        self.items = items
    }

    /// Reads an `<x xmlns='jabber:x:data'/>` element.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("x", namespace: Namespace.dataForms)
        type = element[attribute: "type"] ?? "form"
        let t = element.child("title", namespace: Namespace.dataForms)?.text
        title = t?.isEmpty == false ? t : nil
        instructions = element.children("instructions", namespace: Namespace.dataForms).map(\.text)
        fields = element.children("field", namespace: Namespace.dataForms).map(Field.init(element:))
        reported = element.child("reported", namespace: Namespace.dataForms)?
            .children("field", namespace: Namespace.dataForms).map(Field.init(element:)) ?? []
        items = element.children("item", namespace: Namespace.dataForms).map {
            $0.children("field", namespace: Namespace.dataForms).map(Field.init(element:))
        }
    }

    /// The hidden FORM_TYPE value, if any.
    public var formType: String? {
        fields.first { $0.name == "FORM_TYPE" }?.values.first
    }

    /// The field named `name`.
    public func field(_ name: String) -> Field? { fields.first { $0.name == name } }

    /// The element to send. A submission carries names and values only (XEP-0004 §3.2); other
    /// forms carry everything this value holds, so a form read and written again is the same.
    public var element: XMLElement {
        var x = XMLElement("x", namespace: Namespace.dataForms, attributes: ["type": type])
        if let title { x.append(XMLElement("title", namespace: Namespace.dataForms, children: [.text(title)])) }
        if type != "submit" {
            for i in instructions { x.append(XMLElement("instructions", namespace: Namespace.dataForms, children: [.text(i)])) }
        }
        if !reported.isEmpty {
            var r = XMLElement("reported", namespace: Namespace.dataForms)
            for field in reported { r.append(element(of: field)) }
            x.append(r)
        }
        for field in fields { x.append(element(of: field)) }
        for item in items {
            var i = XMLElement("item", namespace: Namespace.dataForms)
            for field in item { i.append(element(of: field)) }
            x.append(i)
        }
        return x
    }

    private func element(of field: Field) -> XMLElement {
        let full = type != "submit"
        var attributes: [String: String] = [:]
        if let name = field.name { attributes["var"] = name }
        if full {
            attributes["type"] = field.type
            if let label = field.label { attributes["label"] = label }
        }
        var f = XMLElement("field", namespace: Namespace.dataForms, attributes: attributes)
        if full, let desc = field.desc { f.append(XMLElement("desc", namespace: Namespace.dataForms, children: [.text(desc)])) }
        if full, field.required { f.append(XMLElement("required", namespace: Namespace.dataForms)) }
        for v in field.values { f.append(XMLElement("value", namespace: Namespace.dataForms, children: [.text(v)])) }
        if full {
            for o in field.options {
                var option = XMLElement("option", namespace: Namespace.dataForms)
                if let label = o.label { option[attribute: "label"] = label }
                option.append(XMLElement("value", namespace: Namespace.dataForms, children: [.text(o.value)]))
                f.append(option)
            }
        }
        return f
    }
}
