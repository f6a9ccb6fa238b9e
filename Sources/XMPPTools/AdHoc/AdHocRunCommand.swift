import Arguments
import TextFormats
import XMPPServices
import XMPPStanzas

extension AdHocTool {
    /// `xmpp-adhoc run NODE`: runs a command to its end, answering every stage from --field.
    struct Run: ToolCommand {
        static let field = Option<String>(
            "field", value: "NAME=VALUE",
            help: "Answer the form field NAME; repeat it for each value of a multi-value field.", repeatable: true)
        static let passwordField = Option<String>(
            "password-field", value: "NAME",
            help: "Answer the field NAME with the password (from --password-file, --password-stdin, XMPP_PASSWORD or a prompt).",
            repeatable: true)

        static let spec = CommandSpec(
            "run", summary: "Run a command, answering its forms with --field NAME=VALUE.",
            discussion: [
                "Each stage's form is answered from the --field values whose names it has; hidden fields and preset "
                    + "values go back as the server sent them, and the session moves on with complete (or next, where "
                    + "the server does not yet allow completing) until the command is completed. Values are checked "
                    + "against their field's type first: a boolean is 0, 1, false or true, a JID must be valid, a list "
                    + "field takes one of its choices (by value or label), a single-line field one line. A required "
                    + "field without a value, or a value that does not fit, cancels the command and is exit status 2 "
                    + "with the field's name.",
                "Passwords never come from the command line: --field refuses a field whose name contains 'password'. "
                    + "Name such fields with --password-field instead; the password is read once, from the usual "
                    + "sources, and answers all of them (add-user asks for it twice, as password and password-verify). "
                    + "--trace hides the values of these fields and the password wherever it would appear, as it "
                    + "hides every field the server's form declares text-private.",
                "The result is printed as the server's notes (info: …, warn: …, error: …) and the fields of its "
                    + "result form, label: value; a result table as tab-separated rows. With --json, an object with "
                    + "the keys node, status, notes, title, instructions, fields, reported, items and unused_fields "
                    + "(the --field names no stage asked for, likely misspelt; also warned about on stderr).",
                "A command that completes with only error notes (Prosody's 'Account already exists') is exit status "
                    + "1 with the note. The server's refusal to let the account run the command (forbidden, "
                    + "not-authorized, not-allowed) is exit status 12; a command the server does not offer is 4.",
            ],
            options: [AdHocTool.to, field, passwordField] + PasswordSource.declarations, positionals: [AdHocTool.node],
            examples: [
                Example("xmpp-adhoc run change-user-password --field accountjid=bob@example.org --password-field password --password-stdin <pw.txt",
                        "Set another user's password as an administrator."),
                Example("xmpp-adhoc run delete-user --field accountjids=old1@example.org --field accountjids=old2@example.org",
                        "Delete two accounts in one command."),
                Example("xmpp-adhoc run announce --field subject=Maintenance --field 'body=Down at 18:00'",
                        "Send an announcement to every online user (where the server offers it)."),
            ])

        let context: AccountContext
        let password: PasswordSource
        let toText: String?
        let nodeText: String
        let values: [String: [String]]
        let passwordFields: [String]

        init(_ invocation: Invocation) throws {
            context = invocation.context
            password = invocation.password
            toText = try invocation.command.value(AdHocTool.to)
            nodeText = invocation.command.argument(AdHocTool.node.name) ?? ""
            values = try Self.values(try invocation.command.values(Self.field))
            passwordFields = try invocation.command.values(Self.passwordField)
            if let clash = passwordFields.first(where: { values[$0] != nil }) {
                throw ToolFailure(.usage, "the field '\(clash)' is given both with --field and --password-field")
            }
        }

        /// `--field NAME=VALUE` pairs, repeated names collected in order; no password on argv.
        static func values(_ pairs: [String]) throws(ToolFailure) -> [String: [String]] {
            var result: [String: [String]] = [:]
            for pair in pairs {
                guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                    throw ToolFailure(.usage, "invalid --field '\(pair)': expected NAME=VALUE")
                }
                let name = String(pair[..<eq])
                if name.lowercased().contains("password") {
                    throw ToolFailure(.usage, "--field may not carry '\(name)': give it with --password-field \(name) (passwords never come from the command line)")
                }
                result[name, default: []].append(String(pair[pair.index(after: eq)...]))
            }
            return result
        }

        func run() throws {
            var answers = values
            if !passwordFields.isEmpty {
                let secret = try password.read(prompt: "Password for \(passwordFields.joined(separator: ", ")): ")
                for name in passwordFields { answers[name] = [secret] }
            }
            let (connection, jid) = try context.connectWithSession()
            defer { connection.close() }
            for name in passwordFields { connection.traceHidesField(name) }
            for secret in Set(passwordFields.compactMap { answers[$0]?.first }) { connection.traceHidesValue(secret) }
            let target = try CommandTarget.resolve(nodeText, entity: try CommandTarget.entity(toText, account: jid), on: connection)
            let run = try AdHocService.run(on: connection, node: target.node, at: target.entity, values: answers)
            if !run.unusedValues.isEmpty {
                Output.err("\(context.environment.program): warning: no stage of \(target.node) asked for "
                           + run.unusedValues.joined(separator: ", "))
            }
            let answer = run.answer
            if context.common.json {
                Output.line(JSONValue.object(
                    [("node", .string(answer.node)), ("status", .optional(answer.status?.rawValue)), ("notes", AdHocOutput.json(answer.notes))]
                        + AdHocOutput.json(answer.form)
                        + [("unused_fields", .array(run.unusedValues.map(JSONValue.string)))]).pretty)
                return
            }
            if !context.common.quiet { AdHocOutput.printResult(answer) }
        }
    }
}
