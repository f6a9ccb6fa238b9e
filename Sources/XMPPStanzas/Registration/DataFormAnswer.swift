/// Why values cannot answer a data form (XEP-0004 §3.3 field types), before anything is sent.
public enum DataFormAnswerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A required field has no value, given or preset.
    case missingField(name: String, label: String?)
    /// A value was given for a field the form does not have (or a fixed one); `known` lists those it has.
    case unknownField(name: String, known: [String])
    /// The value does not fit the field's type.
    case invalidValue(field: String, value: String, reason: String)

    public var description: String {
        switch self {
        case .missingField(let name, let label):
            return "the form requires the field '\(name)'" + (label.map { " (\($0))" } ?? "")
        case .unknownField(let name, let known):
            return "the form has no field '\(name)'" + (known.isEmpty ? "" : "; it has: " + known.joined(separator: ", "))
        case .invalidValue(let field, let value, let reason):
            return "invalid value '\(value)' for the field '\(field)': \(reason)"
        }
    }
}

extension DataForm {
    /// The `submit` form answering this one with `values` (by field name; several values for
    /// the -multi types, and a value with line breaks is several lines of a text-multi field).
    /// FORM_TYPE, hidden fields and preset values are sent back as they were; fixed fields are
    /// left out. Values are checked against their field's type: booleans are 0, 1, false or
    /// true; JIDs must parse; a list's value must be one of its options (given by value or by
    /// label); single fields take one value without line breaks.
    public func submission(_ values: [String: [String]]) throws(DataFormAnswerError) -> DataForm {
        let settable = fields.filter { $0.type != "fixed" }.compactMap(\.name)
        for name in values.keys.sorted() where !settable.contains(name) || name == "FORM_TYPE" {
            throw .unknownField(name: name, known: fields.filter { $0.type != "fixed" && $0.type != "hidden" }.compactMap(\.name))
        }
        var answered: [Field] = []
        for field in fields {
            guard let name = field.name, field.type != "fixed" else { continue }
            let chosen: [String]
            if let given = values[name] {
                chosen = try DataForm.check(given, for: field)
            } else {
                chosen = field.values
            }
            if chosen.isEmpty || chosen == [""] {
                if field.required && field.type != "hidden" { throw .missingField(name: name, label: field.label) }
                if field.type != "hidden" { continue }
            }
            answered.append(Field(name: name, type: field.type, values: chosen))
        }
        return DataForm(type: "submit", fields: answered)
    }

    /// The names of the fields a person (or `--field`) answers: not fixed, not hidden.
    public var answerableFields: [Field] { fields.filter { $0.name != nil && $0.type != "fixed" && $0.type != "hidden" } }

    /// `given` checked (and normalised: list labels to values, text-multi lines) for `field`.
    static func check(_ given: [String], for field: Field) throws(DataFormAnswerError) -> [String] {
        let name = field.name ?? ""
        func bad(_ value: String, _ reason: String) -> DataFormAnswerError { .invalidValue(field: name, value: value, reason: reason) }
        let multi = field.type.hasSuffix("-multi")
        var values = given
        if field.type == "text-multi" { values = given.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } }
        if !multi, values.count > 1 { throw bad(values.joined(separator: ", "), "the field takes one value") }
        var result: [String] = []
        for value in values {
            switch field.type {
            case "boolean":
                guard ["0", "1", "true", "false"].contains(value) else { throw bad(value, "a boolean is 0, 1, false or true") }
                result.append(value)
            case "jid-single", "jid-multi":
                do { result.append(try JID(value).description) } catch { throw bad(value, "not a JID: \(error)") }
            case "list-single", "list-multi":
                if field.options.isEmpty || field.options.contains(where: { $0.value == value }) {
                    result.append(value)
                } else if let option = field.options.first(where: { $0.label == value }) {
                    result.append(option.value)
                } else {
                    throw bad(value, "choose one of " + field.options.map(\.value).joined(separator: ", "))
                }
            default:
                if !multi, value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                    throw bad(value, "a \(field.type) field takes one line")
                }
                result.append(value)
            }
        }
        return result
    }
}
