/// `xmpp-register`: dispatches its subcommands.
public enum RegisterTool {
    /// Runs the tool.
    public static func main() -> Never {
        ToolMain.run(spec: RegisterSpec.spec) { inv in
            let commands = RegisterCommands(context: inv.context, password: inv.password)
            switch inv.command.command {
            case "create":
                let profile = Profile(nickname: inv.command.string("nickname"), fullname: inv.command.string("fullname"),
                                      email: inv.command.string("email"), avatar: inv.command.string("avatar"))
                try commands.create(jidText: inv.command.argument("JID") ?? "",
                                    fields: try fields(inv.command.strings("field")), profile: profile,
                                    login: inv.command.flag("login"))
            case "form": try commands.form(domainText: inv.command.argument("DOMAIN") ?? "")
            case "passwd": try commands.passwd()
            case "delete": try commands.delete(confirmed: inv.command.flag("yes"))
            case "batch": try BatchCommand(context: inv.context, options: try BatchOptions(inv.command)).run()
            default: throw ToolFailure(.usage, "unknown command '\(inv.command.command)'")
            }
        }
    }

    /// `--field NAME=VALUE` pairs; `password` and `username` may not be given this way.
    static func fields(_ pairs: [String]) throws(ToolFailure) -> [String: String] {
        var result: [String: String] = [:]
        for pair in pairs {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw ToolFailure(.usage, "invalid --field '\(pair)': expected NAME=VALUE")
            }
            let name = String(pair[..<eq])
            guard name != "password", name != "username" else {
                throw ToolFailure(.usage, "--field may not set '\(name)' (the JID and password sources do)")
            }
            result[name] = String(pair[pair.index(after: eq)...])
        }
        return result
    }
}
