import XCTest
import Handouts
@testable import SlipPrinter

/// The PDF's layout and what it refuses (what the pages look like is read back with poppler and
/// zbar in EndToEndTests/HandoutEndToEndTests).
final class SlipPDFTests: XCTestCase {
    func testSlipsFillPagesAndEachGroupStartsOne() throws {
        let slip = Slip(name: "Anna", address: "anna@school.example", secret: .password("Kq7mPx3vRt9w"))
        let pdf = try SlipPDF(SlipSheet()).render([SlipGroup(heading: "A", slips: Array(repeating: slip, count: 9)),
                                        SlipGroup(heading: "Empty", slips: []),
                                        SlipGroup(heading: "B", slips: [slip])])
        XCTAssertEqual(Array(pdf.prefix(5)), Array("%PDF-".utf8))
        XCTAssertEqual(Self.pages(pdf), 3, "9 slips of A on two pages, B on a third, no page for an empty group")
    }

    func testSlipsStayInsideThePage() {
        for paper in Paper.allCases {
            let sheet = SlipPDF(SlipSheet(paper: paper))
            let (width, height) = paper.size
            for slot in 0..<SlipPDF.slipsPerPage {
                let f = sheet.frame(slot: slot)
                XCTAssertGreaterThanOrEqual(f.x, 20)
                XCTAssertLessThanOrEqual(f.x + f.width, width - 20 + 0.001)
                XCTAssertLessThanOrEqual(f.y + f.height, height - 20 + 0.001)
                XCTAssertGreaterThan(f.height, 150, "room for name, address, password or code, server and text")
            }
        }
    }

    func testAMissingMonospacedFontIsRefusedRatherThanSubstituted() {
        XCTAssertNoThrow(try SlipPDF.requireFont("DejaVu Sans Mono", package: "fonts-dejavu-core"))
        XCTAssertThrowsError(try SlipPDF.requireFont("No Such Font Family Anywhere", package: "x")) { error in
            XCTAssertTrue("\(error)".contains("is not installed"), "\(error)")
        }
    }

    /// The page objects' count (cairo writes `/Type /Page` once per page).
    static func pages(_ pdf: [UInt8]) -> Int {
        let text = String(decoding: pdf, as: UTF8.self)
        return text.components(separatedBy: "/Type /Page\n").count - 1 + text.components(separatedBy: "/Type /Page ").count - 1
    }
}
