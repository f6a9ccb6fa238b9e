/// `xmpp-avatar`: dispatches its subcommands.
public enum AvatarTool {
    /// Runs the tool.
    public static func main() -> Never {
        ToolMain.run(spec: AvatarSpec.spec) { inv in
            let read = AvatarReadCommands(context: inv.context, command: inv.command)
            let write = AvatarWriteCommands(context: inv.context, command: inv.command)
            switch inv.command.command {
            case "set": try write.set()
            case "get": try read.get()
            case "info": try read.info()
            case "remove": try write.remove()
            case "resize": try AvatarResizeCommand(common: inv.common, command: inv.command).run()
            default: throw ToolFailure(.usage, "unknown command '\(inv.command.command)'")
            }
        }
    }
}
