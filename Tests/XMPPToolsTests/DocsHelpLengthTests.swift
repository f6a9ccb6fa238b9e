import Arguments
import XCTest
import XMPPTools

/// `--help` is a summary that fits a screen; the man page is the manual and keeps every
/// explanation the help leaves out (issue 28).
final class DocsHelpLengthTests: XCTestCase {
    static let maximumLines = 60

    /// Each tool's help and each subcommand's, as the parser answers `--help`.
    private func helpPages() throws -> [(name: String, text: String)] {
        var pages: [(String, String)] = []
        for spec in AllSpecs.tools {
            pages.append((spec.name, HelpRenderer.tool(spec)))
            for command in spec.subcommands where !command.hidden {
                pages.append((spec.name + " " + command.name, HelpRenderer.command(command, in: spec)))
            }
        }
        return pages
    }

    func testEveryHelpIsAtMostSixtyLines() throws {
        for (name, text) in try helpPages() {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            XCTAssertLessThanOrEqual(lines, Self.maximumLines, "\(name) --help")
        }
    }

    func testEveryHelpPointsToItsManPage() throws {
        for (name, text) in try helpPages() {
            let tool = String(name.prefix { $0 != " " })
            XCTAssertTrue(text.replacingOccurrences(of: "\n", with: " ").contains("man \(tool)"), "\(name) --help")
        }
    }

    /// Every option's and argument's whole explanation, and every command's discussion, is in the
    /// man page (its words; roff's escapes and line breaks aside).
    func testTheManPageKeepsEveryExplanation() throws {
        for spec in AllSpecs.tools {
            let man = manText(try XCTUnwrap(DocsSupport.checkedIn(Documentation.Location.manPage(spec.name))))
            var texts = spec.globalOptions.filter { !$0.hidden }.map(\.help) + spec.description
            for command in spec.subcommands where !command.hidden {
                texts += command.discussion + command.visibleOptions.map(\.help) + command.positionals.map(\.help)
            }
            for text in texts {
                XCTAssertTrue(man.contains(text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")), "\(spec.name): the man page lacks \"\(text.prefix(60))…\"")
            }
        }
    }

    /// Text as a run of words: roff's escapes (`\-`, `\e`, `\(aq`, `\&`, `\[uXXXX]`) undone,
    /// whitespace collapsed.
    private func manText(_ text: String) -> String {
        var unescaped = text.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\")
            .replacingOccurrences(of: "\\(aq", with: "'").replacingOccurrences(of: "\\&", with: "")
        while let start = unescaped.range(of: "\\[u"), let end = unescaped[start.upperBound...].firstIndex(of: "]"),
            let value = UInt32(unescaped[start.upperBound..<end], radix: 16), let scalar = Unicode.Scalar(value)
        {
            unescaped.replaceSubrange(start.lowerBound...end, with: String(Character(scalar)))
        }
        return unescaped.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
