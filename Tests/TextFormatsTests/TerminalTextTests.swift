import TextFormats
import XCTest

/// TerminalText's byte fast path gives what the scalar walk gives.
final class TerminalTextTests: XCTestCase {
    func testAppendEscapedAgreesWithEscaped() {
        var samples = ["", "plain text", "c0001@localhost", "tab\there", "new\nline", "\u{1B}[31mred", "\u{7F}", "\u{85}",
                       "Ünïcode ☃", "\u{202E}evil", "back\\slash", "\u{2028}", "e\u{301}", "~ !\"#$%&'()*+,-./:;<=>?@[]^_`{|}"]
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "~", "\u{1F}", "\u{20}", "\u{7E}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}",
                                          "\u{061C}", "\u{200F}", "\u{2066}", "é", "😀", "\t", "\\"]
        for _ in 0..<2_000 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8, using: &generator) { s.append(alphabet.randomElement(using: &generator)!) }
            samples.append(String(s))
        }
        for sample in samples {
            var bytes: [UInt8] = Array("prefix".utf8)
            TerminalText.appendEscaped(sample, to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "prefix" + TerminalText.escaped(sample), sample.debugDescription)
        }
    }
}
