import TextFormats
import XMPPStanzas

/// How commands, forms and results are shown: JSON with stable snake_case keys, and text for
/// people with the server's words escaped.
enum AdHocOutput {
    /// One field as JSON: name, type, label, required, values, options.
    static func json(_ field: DataForm.Field) -> JSONValue {
        .object([
            ("name", .optional(field.name)), ("type", .string(field.type)), ("label", .optional(field.label)),
            ("required", .bool(field.required)), ("values", .array(field.values.map(JSONValue.string))),
            ("options", .array(field.options.map { .object([("label", .optional($0.label)), ("value", .string($0.value))]) })),
        ])
    }

    /// A form (or result) as JSON: title, instructions, fields, and a result table's reported
    /// columns and items (each an object of field name to its values).
    static func json(_ form: DataForm?) -> [(String, JSONValue)] {
        [
            ("title", .optional(form?.title)),
            ("instructions", .array((form?.instructions ?? []).map(JSONValue.string))),
            ("fields", .array((form?.fields ?? []).filter { $0.type != "hidden" }.map(json))),
            ("reported", .array((form?.reported ?? []).map(json))),
            ("items", .array((form?.items ?? []).map { row in
                .object(row.compactMap { f in f.name.map { ($0, .array(f.values.map(JSONValue.string))) } })
            })),
        ]
    }

    /// The notes as JSON: type and text.
    static func json(_ notes: [AdHocCommand.Note]) -> JSONValue {
        .array(notes.map { .object([("type", .string($0.kind.rawValue)), ("text", .string($0.text))]) })
    }

    /// A form's fields for people: one line each, `name (type, required): label = values`.
    static func printFields(_ form: DataForm) {
        if let title = form.title { Output.textLine(title) }
        for line in form.instructions { Output.textLine(line) }
        for field in form.answerableFields {
            var line = "  " + (field.name ?? "")
            line += " (" + field.type + (field.required ? ", required" : "") + ")"
            if let label = field.label { line += ": " + label }
            if !field.values.isEmpty { line += " [" + field.values.joined(separator: ", ") + "]" }
            Output.textLine(line)
            for option in field.options {
                Output.textLine("      " + option.value + (option.label.map { " - " + $0 } ?? ""))
            }
        }
    }

    /// A result for people: its notes (`info: …`), then each field `label: values` (values of a
    /// -multi field one per line), then a result table as tab-separated rows.
    static func printResult(_ answer: AdHocCommand) {
        for note in answer.notes { Output.textLine(note.kind.rawValue + ": " + note.text) }
        guard let form = answer.form else { return }
        if let title = form.title { Output.textLine(title) }
        for field in form.fields where field.type != "hidden" {
            let name = field.label ?? field.name ?? ""
            if field.type.hasSuffix("-multi") {
                Output.textLine(name + ":")
                for value in field.values { Output.textLine("  " + value) }
            } else {
                Output.textLine(name + ": " + field.values.joined(separator: ", "))
            }
        }
        if !form.reported.isEmpty {
            let columns = form.reported.compactMap(\.name)
            Output.textLine(form.reported.map { $0.label ?? $0.name ?? "" }.joined(separator: "\t"))
            for row in form.items {
                Output.textLine(columns.map { name in row.first { $0.name == name }?.values.joined(separator: ", ") ?? "" }
                    .joined(separator: "\t"))
            }
        }
    }
}
