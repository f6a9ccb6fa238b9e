import Arguments
import TextFormats

extension AvatarTool {
    /// `xmpp-avatar get [JID] [-o FILE]`: finds an avatar and writes its bytes.
    struct Get: ToolCommand {
        static let output = Option<String>("output", short: "o", value: "FILE", help: "Write the image here (- for standard output).",
                                           completion: .anyFile)

        static let spec = CommandSpec(
            "get", summary: "Fetch an avatar, check its SHA-1 and write its bytes.",
            discussion: [
                "The image goes to FILE, or to standard output when that is not a terminal (-o - or no -o). With -o "
                    + "FILE the SHA-1 is printed. The bytes are written as published: PEP avatars of any type the "
                    + "XEP-0084 metadata lists in the data node (image/png first, else e.g. image/jpeg), vCard photos "
                    + "of any type. Exit status 4 when the JID has no avatar (also when its PEP service answers "
                    + "forbidden, which Prosody says both for none and for one hidden from this account); 8 when the "
                    + "PEP service refuses this account (not-authorized, not-allowed: a presence or roster access "
                    + "model) and no later --source has one.",
            ],
            options: [output, AvatarQuery.cached, AvatarQuery.source] + PasswordSource.declarations,
            positionals: [AvatarQuery.jid],
            examples: [Example("xmpp-avatar get bob -o bob.png", "Save bob's avatar (bob on the account's domain).")])

        let query: AvatarQuery
        let output: String?
        var common: CommonOptions { query.context.common }

        init(_ invocation: Invocation) throws {
            output = try invocation.command.value(Self.output)
            // Before anything else, as before any connection: where the bytes may go.
            try ImageFiles.checkBinaryDestination(output, json: invocation.common.json)
            query = try AvatarQuery(invocation)
        }

        /// Writes the avatar's bytes to `-o FILE` or standard output.
        func run() throws {
            let found = try query.find()
            try Output.write(found.bytes, toFileOrStdout: output)
            guard !ImageFiles.isStdout(output) else { return }
            if common.json {
                Output.line(JSONValue.object(found.jsonMembers + [("file", .string(output ?? "-"))]).pretty)
            } else if !common.quiet {
                Output.line(found.hash)
            }
        }
    }
}
