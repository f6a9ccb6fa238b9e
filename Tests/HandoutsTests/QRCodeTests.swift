import XCTest
@testable import Handouts

/// QR codes from libqrencode, and the same code as text for a terminal.
final class QRCodeTests: XCTestCase {
    func testTheSmallestVersionThatHoldsTheText() throws {
        XCTAssertEqual(try QRCode("xmpp:a@b").size, 21, "version 1")
        let invite = "xmpp:school.example?register;preauth=" + String(repeating: "Zq3kT8vLmN", count: 4)
        let code = try QRCode(invite)
        XCTAssertEqual((code.size - 17) % 4, 0, "21 + 4 per version")
        XCTAssertGreaterThan(code.size, 21)
        XCTAssertEqual(code.modules.count, code.size * code.size)
        // The finder pattern in the top left corner: a dark ring around a light one around a dark 3×3 square.
        XCTAssertTrue((0..<7).allSatisfy { code.isDark(x: $0, y: 0) && code.isDark(x: 0, y: $0) })
        XCTAssertFalse(code.isDark(x: 1, y: 1))
        XCTAssertTrue(code.isDark(x: 3, y: 3))
        XCTAssertFalse(code.isDark(x: -1, y: 0), "the quiet zone is light")
        XCTAssertNotEqual(try QRCode(invite + "x").modules, code.modules)
    }

    func testTextNoCodeCanHoldIsAnError() {
        XCTAssertThrowsError(try QRCode(String(repeating: "\u{00E9}", count: 2000))) { error in
            XCTAssertTrue("\(error)".contains("do not fit in a QR code"), "\(error)")
        }
        XCTAssertThrowsError(try QRCode(""))
    }

    /// Each character is two modules, one above the other; read back, the text is the code.
    func testTerminalHalfBlocksDrawEveryModule() throws {
        let code = try QRCode("xmpp:school.example?register;preauth=T0k3n")
        for inverted in [true, false] {
            let lines = code.terminalText(inverted: inverted, margin: 2).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            XCTAssertEqual(lines.count, (code.size + 4 + 1) / 2)
            for (row, line) in lines.enumerated() {
                let cells = Array(line.unicodeScalars)
                XCTAssertEqual(cells.count, code.size + 4)
                for (column, cell) in cells.enumerated() {
                    let (top, bottom): (Bool, Bool)
                    switch cell {
                    case "\u{2588}": (top, bottom) = (true, true)
                    case "\u{2580}": (top, bottom) = (true, false)
                    case "\u{2584}": (top, bottom) = (false, true)
                    case " ": (top, bottom) = (false, false)
                    default: return XCTFail("unexpected character U+\(String(cell.value, radix: 16))")
                    }
                    let x = column - 2, y = row * 2 - 2
                    XCTAssertEqual(top, code.isDark(x: x, y: y) != inverted, "(\(x), \(y))")
                    if y + 1 < code.size + 2 { XCTAssertEqual(bottom, code.isDark(x: x, y: y + 1) != inverted, "(\(x), \(y + 1))") }
                }
            }
        }
    }
}
