import XMLTree

/// Builds XEP-0077 request payloads: register, change password, cancel.
public enum RegistrationRequest {
    /// The empty query that asks for the form (XEP-0077 §3.1).
    public static var formQuery: XMLElement { XMLElement("query", namespace: Namespace.register) }

    /// The submission answering `form` with `values` (username, password and any extra fields
    /// such as email or nick). With a data form, FORM_TYPE and hidden fields are echoed back;
    /// otherwise the plain fields are sent. Throws when a required value is missing.
    public static func submission(answering form: RegistrationForm, values: [String: String]) throws(RegistrationInputError) -> XMLElement {
        var query = XMLElement("query", namespace: Namespace.register)
        if let dataForm = form.form {
            var fields: [DataForm.Field] = []
            for field in dataForm.fields {
                guard let name = field.name, field.type != "fixed" else { continue }
                if let value = values[name] {
                    fields.append(DataForm.Field(name: name, values: [value]))
                } else if field.type == "hidden" || !field.values.isEmpty {
                    fields.append(DataForm.Field(name: name, values: field.values))
                } else if field.required {
                    throw .missingField(name)
                }
            }
            query.append(DataForm(type: "submit", fields: fields).element)
        } else {
            var names = form.fields.map(\.name)
            for required in ["username", "password"] where !names.contains(required) { names.append(required) }
            for name in names {
                guard let value = values[name] else { throw .missingField(name) }
                query.append(XMLElement(name, namespace: Namespace.register, children: [.text(value)]))
            }
        }
        return query
    }

    /// The password change payload (XEP-0077 §3.3), sent on an authenticated stream.
    public static func changePassword(username: String, newPassword: String) -> XMLElement {
        XMLElement("query", namespace: Namespace.register, children: [
            .element(XMLElement("username", namespace: Namespace.register, children: [.text(username)])),
            .element(XMLElement("password", namespace: Namespace.register, children: [.text(newPassword)])),
        ])
    }

    /// The cancellation payload (XEP-0077 §3.2).
    public static var remove: XMLElement {
        XMLElement("query", namespace: Namespace.register, children: [.element(XMLElement("remove", namespace: Namespace.register))])
    }
}

/// A value a registration form requires was not supplied.
public enum RegistrationInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server requires this field and no value was given.
    case missingField(String)

    public var description: String {
        switch self {
        case .missingField(let name): return "the server requires the field '\(name)'"
        }
    }
}
