import Arguments

/// Every tool of the suite whose man page and completion scripts are generated
/// (`make docs`, `Sources/xmpp-tools-docgen`), and which `make install` ships.
public enum AllSpecs {
    /// The tools, in the order `xmpp-tools(7)` lists them.
    ///
    /// Adding a tool: uncomment (or add) its one line below, then run `make docs` and commit
    /// the regenerated `man/` and `completions/`. Nothing else needs to change: the overview
    /// page, the Makefile and the tests all follow this list. The placeholders are kept on
    /// separate lines between comments so that branches adding different tools merge cleanly.
    public static let tools: [ToolSpec] = [
        // xmpp-register
        RegisterTool.spec,
        // xmpp-login
        LoginTool.spec,
        // xmpp-roster
        RosterTool.spec,
        // xmpp-vcard
        VCardTool.spec,
        // xmpp-avatar
        AvatarTool.spec,
        // xmpp-adhoc
        AdHocTool.spec,
    ]
}
