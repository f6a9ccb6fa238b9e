/// `xmpp-login`: dispatches its subcommands.
public enum LoginTool {
    /// Runs the tool.
    public static func main() -> Never {
        ToolMain.run(spec: LoginSpec.spec) { inv in
            let sessions = SessionCommands(context: inv.context)
            switch inv.command.command {
            case "login":
                try LoginCommand(context: inv.context, password: inv.password).run(jidText: inv.command.argument("JID") ?? "")
            case "status": try sessions.status(jidText: inv.command.argument("JID"))
            case "list": try sessions.list()
            case "switch": try sessions.switchTo(jidText: inv.command.argument("JID") ?? "")
            case "forget-settings": try sessions.forgetSettings(jidText: inv.command.argument("JID"))
            case "logout": try sessions.logout(jidText: inv.command.argument("JID"), all: inv.command.flag("all"))
            default: throw ToolFailure(.usage, "unknown command '\(inv.command.command)'")
            }
        }
    }
}
