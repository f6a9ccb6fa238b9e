import Glibc
import XMPPStorage

/// The one program `make install` ships: every tool of the suite in one executable, chosen by
/// the name it is run as (the symbolic links xmpp-register, xmpp-login… point to it), as
/// busybox does; or `xmpp-tools TOOL ARGS…` by its own name. One copy of the code instead of
/// one static copy per tool.
public enum MultiCall {
    /// The names the tools are run as, in `AllSpecs` order.
    static var names: [String] { AllSpecs.programs.map(\.name) }

    /// The tool named `name` (a path's last component counts), or nil; only that tool is built.
    static func tool(named name: String) -> Tool? {
        let base = PathText.lastComponent(name)
        return AllSpecs.programs.first { $0.name == base }?.tool()
    }

    public static func main() -> Never {
        let arguments = CommandLine.arguments
        if let tool = tool(named: arguments.first ?? "") { tool.main(arguments: Array(arguments.dropFirst())) }
        guard arguments.count > 1 else { usage(status: 2) }
        switch arguments[1] {
        case "-h", "--help": usage(status: 0)
        case "--version":
            Output.line("xmpp-tools \(CommonSpec.version)")
            exit(0)
        default:
            guard let tool = tool(named: arguments[1]), !PathText.containsSeparator(arguments[1]) else {
                Output.err("xmpp-tools: unknown program '\(arguments[1])'; it runs " + names.joined(separator: ", "))
                exit(ExitCode.usage.rawValue)
            }
            tool.main(arguments: Array(arguments.dropFirst(2)))
        }
    }

    private static func usage(status: Int32) -> Never {
        let text = "Usage: xmpp-tools PROGRAM [ARGUMENTS]\n\nRuns one program of the suite, as its own name does "
            + "(the installed xmpp-register, xmpp-login… are links to this program):\n"
            + names.map { "  \($0)" }.joined(separator: "\n") + "\n\nSee xmpp-tools(7)."
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if status == 0 { Output.line(String(line)) } else { Output.err(String(line)) }
        }
        exit(status)
    }
}
