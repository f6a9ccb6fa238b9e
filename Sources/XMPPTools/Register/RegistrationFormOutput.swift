import TextFormats
import XMPPStanzas

/// Prints a registration form for people or as JSON.
enum RegistrationFormOutput {
    static func print(_ form: RegistrationForm, domain: String, advertised: Bool, json: Bool) {
        let fields: [(name: String, type: String, label: String?, required: Bool, values: [String])]
        if let dataForm = form.form {
            fields = dataForm.fields.compactMap { f in
                guard let name = f.name, f.type != "hidden", f.type != "fixed" else { return nil }
                return (name, f.type, f.label, f.required, f.values)
            }
        } else {
            fields = form.fields.map { ($0.name, $0.name == "password" ? "text-private" : "text-single", nil, true,
                                        $0.value.isEmpty ? [] : [$0.value]) }
        }
        if json {
            Output.line(JSONValue.object([
                ("domain", .string(domain)),
                ("advertised", .bool(advertised)),
                ("instructions", .optional(form.instructions ?? form.form?.instructions.first)),
                ("data_form", .bool(form.form != nil)),
                ("captcha", .bool(form.isCaptcha)),
                ("redirect_url", .optional(form.redirectURL)),
                ("fields", .array(fields.map { f in
                    .object([("name", .string(f.name)), ("type", .string(f.type)), ("label", .optional(f.label)),
                             ("required", .bool(f.required)), ("values", .array(f.values.map(JSONValue.string)))])
                })),
            ]).pretty)
            return
        }
        Output.line("Registration on \(domain)\(form.form != nil ? " (data form)" : "")")
        // Instructions, URL, names and labels are the server's text: shown escaped (`TerminalText`).
        if let instructions = form.instructions ?? form.form?.instructions.first {
            for line in instructions.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                Output.textLine(String(line))
            }
        }
        if form.isCaptcha { Output.line("The server requires a CAPTCHA: scripts cannot register here.") }
        if let url = form.redirectURL { Output.textLine("Web registration: \(url)") }
        let width = fields.map(\.name.count).max() ?? 0
        for f in fields {
            let pad = String(repeating: " ", count: width - f.name.count)
            let label = f.label.map { "  \($0)" } ?? ""
            Output.textLine("  \(f.name)\(pad)  \(f.required ? "required" : "optional")  \(f.type)\(label)")
        }
    }
}
