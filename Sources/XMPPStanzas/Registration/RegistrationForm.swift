import XMLTree

/// What a server asks for to register an account (XEP-0077 §3.1): plain fields, a data form, or both.
public struct RegistrationForm: Sendable, Equatable {
    /// The server's instructions.
    public var instructions: String?
    /// The `<registered/>` flag: the requesting entity is already registered.
    public var registered: Bool
    /// Plain field names asked for (username, password, email, …), in order, with any preset value.
    public var fields: [(name: String, value: String)]
    /// The data form, when the server uses one (it then supersedes the plain fields).
    public var form: DataForm?
    /// An out-of-band URL (XEP-0066) where registration happens instead.
    public var redirectURL: String?

    /// Builds a form value.
    public init(instructions: String? = nil, registered: Bool = false, fields: [(name: String, value: String)] = [],
                form: DataForm? = nil, redirectURL: String? = nil) {
        self.instructions = instructions
        self.registered = registered
        self.fields = fields
        self.form = form
        self.redirectURL = redirectURL
    }

    /// Reads a `<query xmlns='jabber:iq:register'/>` payload.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("query", namespace: Namespace.register)
        let i = element.child("instructions", namespace: Namespace.register)?.text.trimmingWhitespace()
        instructions = i?.isEmpty == false ? i : nil
        registered = element.child("registered", namespace: Namespace.register) != nil
        let meta: Set<String> = ["instructions", "registered", "remove"]
        fields = element.elements
            .filter { $0.namespace == Namespace.register && !meta.contains($0.name) }
            .map { (name: $0.name, value: $0.text) }
        form = try element.child("x", namespace: Namespace.dataForms).map { x throws(StanzaParseError) in try DataForm(element: x) }
        redirectURL = element.child("x", namespace: Namespace.outOfBand)?
            .child("url", namespace: Namespace.outOfBand)?.text
    }

    /// True when the form is a CAPTCHA challenge (XEP-0158), which a script cannot answer.
    public var isCaptcha: Bool {
        guard let form else { return false }
        return form.formType == Namespace.captcha || form.fields.contains { $0.hasMedia }
    }

    /// Whether the form asks for a field called `name`: its data form's fields when it has one
    /// (which supersedes the plain fields), else its plain fields.
    public func asks(_ name: String) -> Bool {
        if let form { return form.field(name) != nil }
        return fields.contains { $0.name == name }
    }

    /// Names of the values the server requires, for messages and `form` output.
    public var requiredFieldNames: [String] {
        if let form {
            return form.fields.filter { $0.required && $0.type != "hidden" && $0.type != "fixed" }.compactMap(\.name)
        }
        return fields.map(\.name)
    }

    public static func == (a: RegistrationForm, b: RegistrationForm) -> Bool {
        a.instructions == b.instructions && a.registered == b.registered && a.form == b.form
            && a.redirectURL == b.redirectURL && a.fields.map(\.name) == b.fields.map(\.name)
            && a.fields.map(\.value) == b.fields.map(\.value)
    }
}
