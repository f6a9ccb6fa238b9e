import Foundation
import ShellTestSupport
import XCTest
import XMPPTools

/// The checked-in man pages: `mandoc -T lint -W warning` finds nothing, and `man -l` renders
/// each with its sections.
final class DocsManTests: XCTestCase {
    private var pages: [String] {
        AllSpecs.tools.map { Documentation.Location.manPage($0.name) } + [Documentation.Location.manPage("xmpp-tools", section: "7")]
    }

    func testMandocLintIsSilent() throws {
        for page in pages {
            let lint = try Shell.run("mandoc", ["-T", "lint", "-W", "warning", page], in: DocsSupport.root)
            XCTAssertEqual(lint.stdout + lint.stderr, "", page)
            XCTAssertEqual(lint.status, 0, page)
        }
    }

    func testManRendersEveryToolPageWithItsSections() throws {
        for spec in AllSpecs.tools {
            let text = try render(Documentation.Location.manPage(spec.name))
            for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ENVIRONMENT", "FILES",
                            "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
                XCTAssertTrue(text.contains("\n" + heading + "\n"), "\(spec.name): no \(heading)")
            }
            XCTAssertTrue(text.contains("\(spec.name) — \(spec.summary)"), spec.name)
            for example in spec.examples + spec.subcommands.flatMap(\.examples) {
                XCTAssertTrue(text.contains("$ " + example.command), "\(spec.name): example \(example.command)")
            }
        }
    }

    func testManRendersTheOverview() throws {
        let text = try render(Documentation.Location.manPage("xmpp-tools", section: "7"))
        for heading in ["ACCOUNTS AND SESSIONS", "STORED DATA", "JSON OUTPUT", "THE CACHE", "EXIT STATUSES",
                        "SECURITY CONSIDERATIONS"] {
            XCTAssertTrue(text.contains("\n" + heading + "\n"), "no \(heading)")
        }
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for code in ExitCode.allCases {
            let words = code.meaning.split(separator: " ").prefix(3).joined(separator: " ")
            XCTAssertTrue(lines.contains { $0.hasPrefix("\(code.rawValue) ") && $0.contains(words) },
                          "exit status \(code.rawValue)")
        }
    }

    /// `man -l PAGE` as plain text, 200 columns wide so that no line breaks inside a sentence
    /// checked for; groff must not complain.
    private func render(_ page: String) throws -> String {
        _ = try Shell.require("man")
        let result = try Shell.run(
            "man", ["-l", page], in: DocsSupport.root,
            environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "200", "MAN_KEEP_FORMATTING": ""])
        XCTAssertEqual(result.status, 0, page)
        XCTAssertEqual(result.stderr, "", page)
        return Shell.plain(result.stdout)
    }
}
