/// `xmpp-vcard`: dispatches its subcommands.
public enum VCardTool {
    /// Runs the tool.
    public static func main() -> Never {
        ToolMain.run(spec: VCardSpec.spec) { inv in
            switch inv.command.command {
            case "get": try VCardGetCommand(inv: inv).run()
            case "set": try VCardSetCommand(inv: inv).run()
            case "import": try VCardImportCommand(inv: inv).run()
            default: throw ToolFailure(.usage, "unknown command '\(inv.command.command)'")
            }
        }
    }
}
