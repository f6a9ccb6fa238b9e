import Arguments
import XCTest

/// The generated scripts run in real bash, fish and zsh against stub tools whose
/// `__complete` prints a fixed cache (see `CompletionHarness`).
final class CompletionBehaviourTests: XCTestCase {
    private static let subcommands = ["list", "add", "remove", "pending", "approve", "rename", "group", "import"]
    private static let contacts = ["alice@example.org", "bob@example.org"]

    // MARK: bash

    func testBashOffersSubcommandsThenCachedContacts() throws {
        let shell = try CompletionHarness()
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", ""]), Self.subcommands)
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", "remove", ""]), Self.contacts)
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", "remove", "b"]), ["bob@example.org"])
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", "re"]), ["remove", "rename"])
    }

    func testBashPassesTheAccountOnTheLineToTheTool() throws {
        let shell = try CompletionHarness()
        XCTAssertEqual(
            try shell.bash(Samples.roster, ["xmpp-roster", "-a", "me@work.example", "remove", ""]),
            ["carol@work.example"])
        XCTAssertEqual(
            try shell.bash(Samples.roster, ["xmpp-roster", "remove", "--account", "=", "x@y.example", ""]),
            ["carol@y.example"])
        XCTAssertEqual(
            try shell.bash(Samples.roster, ["xmpp-roster", "--account=me@z.example", "approve", ""]),
            ["carol@z.example"])
    }

    func testBashCompletesOptionsAndTheirValues() throws {
        let shell = try CompletionHarness()
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", "list", "--so"]), ["--sort"])
        XCTAssertEqual(
            try shell.bash(Samples.roster, ["xmpp-roster", "list", "--sort", ""]), ["jid", "name", "group"])
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", "list", "--sort", "=", "n"]), ["name"])
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", "list", "-g", ""]), ["Friends", "Work"])
        XCTAssertEqual(
            try shell.bash(Samples.roster, ["xmpp-roster", "--account", ""]), ["me@example.org", "work@example.com"])
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", "--timeout", ""]), [])
        XCTAssertEqual(try shell.bash(Samples.avatar, ["xmpp-avatar", "set", "--fit", ""]), ["crop", "pad"])
        XCTAssertEqual(
            Set(try shell.bash(Samples.roster, ["xmpp-roster", "remove", "--"])),
            Set(Samples.roster.globalOptions.filter { !$0.hidden }.map(\.longName)))
    }

    func testBashCompletesFilesByExtensionAndDirectories() throws {
        let shell = try CompletionHarness()
        XCTAssertEqual(Set(try shell.bash(Samples.avatar, ["xmpp-avatar", "set", ""])), ["photos", "me.png"])
        XCTAssertEqual(
            Set(try shell.bash(Samples.roster, ["xmpp-roster", "import", ""])), ["photos", "notes.txt", "list.json"])
        XCTAssertEqual(
            Set(try shell.bash(Samples.roster, ["xmpp-roster", "--ca-file", ""])),
            ["photos", "notes.txt", "list.json", "me.png"])
        XCTAssertEqual(try shell.bash(Samples.avatar, ["xmpp-avatar", "get", "--out-dir", ""]), ["photos"])
    }

    func testBashHandlesTheDefaultSubcommand() throws {
        let shell = try CompletionHarness()
        XCTAssertEqual(
            try shell.bash(Samples.login, ["xmpp-login", ""]),
            ["status", "list", "switch", "me@example.org", "work@example.com"])
        XCTAssertEqual(
            try shell.bash(Samples.login, ["xmpp-login", "--pass"]), ["--password-file", "--password-stdin"])
        XCTAssertEqual(
            try shell.bash(Samples.login, ["xmpp-login", "me@example.org", "--password-s"]), ["--password-stdin"])
        XCTAssertEqual(try shell.bash(Samples.login, ["xmpp-login", "switch", "w"]), ["work@example.com"])
    }

    func testBashDoesNotCompleteAfterTheLastArgumentOrAfterDoubleDash() throws {
        let shell = try CompletionHarness()
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", "remove", "bob", ""]), [])
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", "list", "--", "--"]), [])
        XCTAssertEqual(try shell.bash(Samples.roster, ["xmpp-roster", "group", "bob", "a", ""]), ["Friends", "Work"])
    }

    /// A group with a space and a contact with an apostrophe stay one word, whether the word is
    /// typed bare, after a backslash or inside quotes (issue 41: `--group Work Stuff` was inserted).
    func testBashQuotesDynamicCandidatesAsTheWordIsTyped() throws {
        let shell = try CompletionHarness(
            contacts: ["o'brien@example.org", "bob@example.org"], groups: ["Friends", "Work Stuff", "$HOME*"])
        let group = ["xmpp-roster", "list", "--group"]
        XCTAssertEqual(try shell.bash(Samples.roster, group + ["W"]), [#"Work\ Stuff"#])
        XCTAssertEqual(try shell.bash(Samples.roster, group + [#"Work\ S"#]), [#"Work\ Stuff"#])
        XCTAssertEqual(try shell.bash(Samples.roster, group + ["'W"]), ["Work Stuff"])
        XCTAssertEqual(try shell.bash(Samples.roster, group + ["\"W"]), ["Work Stuff"])
        for typed in ["W", #"Work\ "#, "'Work S", "\"Work"] {
            XCTAssertEqual(try shell.bashArgument(Samples.roster, group + [typed]), "Work Stuff", typed)
        }
        for typed in ["$", #"\$H"#, "'$HO", "\"$"] {
            XCTAssertEqual(try shell.bashArgument(Samples.roster, group + [typed]), "$HOME*", typed)
        }
        let contact = ["xmpp-roster", "remove"]
        XCTAssertEqual(try shell.bash(Samples.roster, contact + ["o"]), [#"o\'brien@example.org"#])
        for typed in ["o", #"o\'b"#, "'o", "\"o'"] {
            XCTAssertEqual(try shell.bashArgument(Samples.roster, contact + [typed]), "o'brien@example.org", typed)
        }
        XCTAssertEqual(try shell.bash(Samples.roster, contact + [""]), [#"o\'brien@example.org"#, "bob@example.org"])
    }

    // MARK: fish

    func testFishOffersSubcommandsContactsAndValues() throws {
        let shell = try CompletionHarness()
        XCTAssertEqual(Set(try shell.fish(Samples.roster, "xmpp-roster ")), Set(Self.subcommands))
        XCTAssertEqual(try shell.fish(Samples.roster, "xmpp-roster remove "), Self.contacts)
        XCTAssertEqual(try shell.fish(Samples.roster, "xmpp-roster -a me@work.example remove "), ["carol@work.example"])
        XCTAssertEqual(
            try shell.fish(Samples.roster, "xmpp-roster --account=me@z.example remove "), ["carol@z.example"])
        XCTAssertEqual(Set(try shell.fish(Samples.roster, "xmpp-roster list --sort ")), ["jid", "name", "group"])
        XCTAssertEqual(try shell.fish(Samples.roster, "xmpp-roster rename bob "), [])
        XCTAssertEqual(Set(try shell.fish(Samples.avatar, "xmpp-avatar set ")), ["photos/", "me.png"])
        XCTAssertEqual(
            Set(try shell.fish(Samples.login, "xmpp-login ")),
            ["status", "list", "switch", "me@example.org", "work@example.com"])
        XCTAssertEqual(
            Set(try shell.fish(Samples.roster, "xmpp-roster remove --")),
            Set(Samples.roster.globalOptions.filter { !$0.hidden }.map(\.longName)))
    }

    // MARK: zsh

    func testZshOffersSubcommandsContactsAndOptionValues() throws {
        let shell = try CompletionHarness()
        XCTAssertEqual(try shell.zsh(Samples.roster, "xmpp-roster "), Self.subcommands)
        XCTAssertEqual(try shell.zsh(Samples.roster, "xmpp-roster remove "), Self.contacts)
        XCTAssertEqual(
            try shell.zsh(Samples.roster, "xmpp-roster remove --json -a me@work.example "), ["carol@work.example"])
        XCTAssertEqual(try shell.zsh(Samples.avatar, "xmpp-avatar set --fit "), ["crop", "pad"])
        XCTAssertEqual(
            Set(try shell.zsh(Samples.login, "xmpp-login ")),
            ["status", "list", "switch", "me@example.org", "work@example.com"])
    }
}
