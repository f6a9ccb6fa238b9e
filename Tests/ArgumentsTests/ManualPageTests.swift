import Arguments
import ShellTestSupport
import XCTest

/// The generic section page model, on a cut-down xmpp-tools(7).
final class ManualPageTests: XCTestCase {
    static let overview = ManualPage(
        name: "xmpp-tools", section: "7", summary: "command-line tools for XMPP accounts",
        sections: [
            .init(
                "DESCRIPTION",
                [
                    .paragraph("Five tools provision and maintain XMPP accounts from a shell."),
                    .table(
                        header: ["Tool", "Subcommands"],
                        rows: [
                            ["xmpp-login", "JID, status [JID], list, switch JID, logout [JID|--all]"],
                            ["xmpp-roster", "list, add JID, remove JID, pending, approve JID|--all"],
                            ["xmpp-avatar", "set IMAGE, get [JID], info [JID], remove, resize IMAGE -o OUT"],
                        ]),
                    .paragraph("Every tool accepts the common options; see any of their pages."),
                ]),
            .init(
                "ENVIRONMENT",
                [.definitions([Definition("XMPP_ACCOUNT", "Account used by default.")], style: .environment)]),
            .init(
                "FILES", [.definitions([Definition("~/.config/xmpp-tools/accounts.json", "Accounts.")], style: .path)]),
            .init(
                "EXIT STATUS",
                [
                    .paragraph("All tools share these statuses."),
                    .definitions([Definition("0", "Success."), Definition("2", "Usage error.")], style: .plain),
                ]),
            .init(
                "EXAMPLES",
                [
                    .paragraph("Register a batch of accounts, eight streams at a time:"),
                    .literal([
                        "$ xmpp-register batch staff.csv --jobs 8 --report report.jsonl",
                        "$ jq -r 'select(.status != \"ok\") | .jid' report.jsonl",
                    ]),
                    .paragraph("Then check one of them."),
                ]),
            .init("SEE ALSO", [.references(["xmpp-roster(1)", "xmpp-login(1)", "jq(1)"])]),
            .init("EMPTY", []),
        ])

    func testRendersEveryBlockKind() {
        let source = Self.overview.render(date: "2024-12-25")
        XCTAssertTrue(source.contains(".Dd December 25, 2024\n.Dt XMPP-TOOLS 7\n.Os\n.Sh NAME\n.Nm xmpp-tools\n"))
        XCTAssertTrue(
            source.contains(
                ".Bl -column xmpp-roster \"set IMAGE, get [JID], info [JID], remove, resize IMAGE \\-o OUT\"\n"))
        XCTAssertTrue(source.contains(".It Sy Tool Ta Sy Subcommands\n"))
        XCTAssertTrue(
            source.contains(".It xmpp-login Ta \"JID, status [JID], list, switch JID, logout [JID|--all]\"\n"))
        XCTAssertTrue(source.contains(".It Ev XMPP_ACCOUNT\n"))
        XCTAssertTrue(source.contains(".It Pa ~/.config/xmpp-tools/accounts.json\n"))
        XCTAssertTrue(source.contains(".Xr jq 1 ,\n.Xr xmpp-login 1 ,\n.Xr xmpp-roster 1\n"))
        XCTAssertFalse(source.contains("EMPTY"), "sections without blocks are left out")
        XCTAssertFalse(source.contains("\n\n"), "blank lines make mandoc warn")
        XCTAssertFalse(source.contains(".Pp\n.Bl"), "a paragraph macro before a list makes mandoc warn")
        XCTAssertFalse(source.contains(".Pp\n.Bd"), "a paragraph macro before a display makes mandoc warn")
    }

    func testLintIsSilentAndManRendersIt() throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Shell.write(Self.overview.render(date: "2024-05-01"), to: "xmpp-tools.7", in: directory)
        let lint = try Shell.run("mandoc", ["-T", "lint", "-W", "warning", path])
        XCTAssertEqual(lint.stdout + lint.stderr, "")
        let man = try Shell.run(
            "man", ["-l", path], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"])
        XCTAssertEqual(man.stderr, "")
        let text = Shell.plain(man.stdout)
        for fragment in [
            "XMPP-TOOLS(7)", "xmpp-register batch staff.csv --jobs 8", "select(.status != \"ok\")",
            "Usage error.",
        ] {
            XCTAssertTrue(text.contains(fragment), "\(fragment) in\n\(text)")
        }
    }

    /// mdoc(7) wants each sentence on its own line (mandoc warns "new sentence, new line");
    /// an abbreviation is not a sentence end.
    func testEverySentenceStartsALine() throws {
        let page = ManualPage(
            name: "t", section: "7", summary: "sentences",
            sections: [
                .init("DESCRIPTION", [
                    .paragraph("One sentence. Two (with e.g. an example). Three?  Four! .dot \"Five.\" Six"),
                    .definitions([Definition("x", "First. Second, i.e. the last.")], style: .plain),
                ])
            ])
        let source = page.render(date: "2024-05-01")
        XCTAssertTrue(
            source.contains(
                "\n.Sh DESCRIPTION\nOne sentence.\nTwo (with e.g.\\& an example).\nThree?\nFour!\n\\&.dot \"Five.\"\nSix\n"),
            source)
        XCTAssertTrue(source.contains("\n.It x\nFirst.\nSecond, i.e.\\& the last.\n"), source)
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Shell.write(source, to: "t.7", in: directory)
        let lint = try Shell.run("mandoc", ["-T", "lint", "-W", "warning", path])
        XCTAssertEqual(lint.stdout + lint.stderr, "")
    }

    func testDatesOtherThanISOAreKept() {
        XCTAssertTrue(Self.overview.render(date: "$Mdocdate$").contains(".Dd $Mdocdate$\n"))
    }
}
