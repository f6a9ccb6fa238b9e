/// `xmpp-roster`: dispatches its subcommands.
public enum RosterTool {
    /// Runs the tool.
    public static func main() -> Never {
        ToolMain.run(spec: RosterSpec.spec) { inv in
            switch inv.command.command {
            case "list": try ListCommand(invocation: inv).run()
            case "add": try EditCommands(invocation: inv).add()
            case "remove": try EditCommands(invocation: inv).remove()
            case "rename": try EditCommands(invocation: inv).rename()
            case "group": try EditCommands(invocation: inv).group()
            case "pending": try SubscriptionCommands(invocation: inv).pending()
            case "approve": try SubscriptionCommands(invocation: inv).approve()
            case "deny": try SubscriptionCommands(invocation: inv).deny()
            case "export": try TransferCommands(invocation: inv).export()
            case "import": try TransferCommands(invocation: inv).importRoster()
            case "watch": try WatchCommand(invocation: inv).run()
            default: throw ToolFailure(.usage, "unknown command '\(inv.command.command)'")
            }
        }
    }
}
