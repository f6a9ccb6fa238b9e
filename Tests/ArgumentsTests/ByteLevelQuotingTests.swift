import XCTest
@testable import Arguments

/// The completion scripts' and man pages' quoting works on bytes (issue 34): a combining mark
/// after a quote, a colon or a dot makes one Swift Character that is none of them, yet the
/// shell and roff see the byte.
final class ByteLevelQuotingTests: XCTestCase {
    static let marks = ["\u{301}", "\u{200D}", "\u{FE0F}", "\u{E0041}"]

    func testShellWordsQuoteEveryQuote() {
        for mark in Self.marks {
            XCTAssertEqual(CompletionRenderer.singleQuoted("a'" + mark + "b"), "'a'\\''" + mark + "b'")
        }
    }

    func testRoffGuardsALineStartingWithADotWhateverFollows() {
        for mark in Self.marks {
            XCTAssertTrue(Roff.literal("." + mark + "TH x").hasPrefix("\\&"), mark.debugDescription)
            XCTAssertTrue(Roff.literal("'" + mark + "x").hasPrefix("\\&"), mark.debugDescription)
        }
    }
}
