import Arguments

/// Every tool of the suite whose man page and completion scripts are generated
/// (`make docs`, `Sources/xmpp-tools-docgen`), and which `make install` ships.
public enum AllSpecs {
    /// The tools' specs, in the order `xmpp-tools(7)` lists them.
    public static let tools: [ToolSpec] = programs.map { $0.tool().spec }

    /// The tools (spec and dispatch) by name, which the one program runs (`MultiCall`). Each is
    /// built when asked for: a run builds only its own tool's spec (docs/DESIGN-NOTES.md
    /// "Footprint"). A unit test checks each name is its tool's.
    ///
    /// Adding a tool: uncomment (or add) its one line below, then run `make docs` and commit
    /// the regenerated `man/` and `completions/`. Nothing else needs to change: the overview
    /// page, the Makefile and the tests all follow this list. The placeholders are kept on
    /// separate lines between comments so that branches adding different tools merge cleanly.
    static let programs: [Program] = [
        // xmpp-register
        Program("xmpp-register") { RegisterTool.tool },
        // xmpp-login
        Program("xmpp-login") { LoginTool.tool },
        // xmpp-roster
        Program("xmpp-roster") { RosterTool.tool },
        // xmpp-vcard
        Program("xmpp-vcard") { VCardTool.tool },
        // xmpp-avatar
        Program("xmpp-avatar") { AvatarTool.tool },
        // xmpp-adhoc
        Program("xmpp-adhoc") { AdHocTool.tool },
    ]

    /// A tool's name, and the tool, built (once, as a static) on first use.
    struct Program: Sendable {
        let name: String
        let tool: @Sendable () -> Tool

        init(_ name: String, _ tool: @escaping @Sendable () -> Tool) {
            self.name = name
            self.tool = tool
        }
    }
}
