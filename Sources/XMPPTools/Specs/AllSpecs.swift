import Arguments

/// Every tool of the suite whose man page and completion scripts are generated
/// (`make docs`, `Sources/xmpp-tools-docgen`), and which `make install` ships.
public enum AllSpecs {
    /// The tools' specs, in the order `xmpp-tools(7)` lists them.
    public static let tools: [ToolSpec] = programs.map(\.spec)

    /// The tools themselves (spec and dispatch), which the one program runs (`MultiCall`).
    ///
    /// Adding a tool: uncomment (or add) its one line below, then run `make docs` and commit
    /// the regenerated `man/` and `completions/`. Nothing else needs to change: the overview
    /// page, the Makefile and the tests all follow this list. The placeholders are kept on
    /// separate lines between comments so that branches adding different tools merge cleanly.
    static let programs: [Tool] = [
        // xmpp-register
        RegisterTool.tool,
        // xmpp-login
        LoginTool.tool,
        // xmpp-roster
        RosterTool.tool,
        // xmpp-vcard
        VCardTool.tool,
        // xmpp-avatar
        AvatarTool.tool,
        // xmpp-adhoc
        AdHocTool.tool,
    ]
}
