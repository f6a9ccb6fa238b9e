import XCTest
@testable import Handouts

/// The request xmpp-register handout sends the slip printer reads back as it was sent.
final class SlipRequestTests: XCTestCase {
    func testARequestReadsBackExactly() throws {
        let request = SlipRequest(
            sheet: SlipSheet(paper: .letter, passwordText: "Sign in \"here\"\n", inviteText: "Scan", title: "pw.csv"),
            groups: [SlipGroup(heading: "Class 5A", slips: [
                Slip(name: "Zoë \u{202E}Ångström", address: "zoe@school.example", secret: .password("p\\w\u{0}")),
                Slip(name: "", address: "li@school.example", secret: .invite("xmpp:school.example?register;preauth=T")),
                Slip(name: "Mei", address: "mei@school.example", secret: .invite("xmpp:mei@school.example?register;preauth=U"),
                     validUntil: "2026-12-05 21:35 UTC"),
            ]), SlipGroup(heading: "李", slips: [])])
        XCTAssertEqual(try SlipRequest(json: request.json), request)
    }

    func testAnInvitesExpiryIsPrintedAsAPersonReadsIt() {
        XCTAssertEqual(Slip.readableTime("2026-12-05T21:35:08Z"), "2026-12-05 21:35 UTC")
        XCTAssertEqual(Slip.readableTime("2026-12-05T21:35Z"), "2026-12-05 21:35 UTC")
        XCTAssertEqual(Slip.readableTime("2026-12-05T21:35:08.25+02:00"), "2026-12-05 21:35 +02:00")
        XCTAssertNil(Slip.readableTime("tomorrow"))
        XCTAssertNil(Slip.readableTime("2026-12-05T21:35:08Zjunk"))
        XCTAssertNil(Slip.readableTime("2026-12-05T21:35:08+02:00\u{202E}"))
    }

    func testMalformedRequestsAreNamed() {
        for (json, reason) in [("[]", "not a JSON object"), ("{\"paper\":\"a3\"}", "no paper a4 or letter"),
                               ("{\"paper\":\"a4\",\"password_text\":\"\",\"invite_text\":\"\",\"title\":\"\",\"groups\":[{\"heading\":\"x\",\"slips\":[{\"name\":\"\",\"address\":\"a@b\"}]}]}",
                                "a slip without password or invite"), ("{", "")] {
            XCTAssertThrowsError(try SlipRequest(json: Array(json.utf8)), json) { error in
                XCTAssertTrue("\(error)".hasPrefix("cannot read the slips to print: " + reason), "\(error)")
            }
        }
    }

    func testPagesCountEachGroupFromANewPage() {
        let slip = Slip(name: "a", address: "a@b", secret: .password("p"))
        XCTAssertEqual(SlipSheet.pages([SlipGroup(heading: "A", slips: Array(repeating: slip, count: 9)),
                                        SlipGroup(heading: "B", slips: []), SlipGroup(heading: "C", slips: [slip])]), 3)
    }
}
