import TextFormats
import XCTest
import XMPPStanzas
@testable import XMPPTools

/// xmpp-roster's file formats: the JSON reader, CSV rows, and import entries from both.
final class RosterFileTests: XCTestCase {
    private func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    func testJSONParserReadsEveryKindOfValue() throws {
        let v = try json(#" {"a": [1, -2.5e1, true, false, null], "b": "x\"y\\z\/\n\u00e9\ud83d\ude00", "c": {}} "#)
        XCTAssertEqual(v, .object([
            ("a", .array([.int(1), .double(-25), .bool(true), .bool(false), .null])),
            ("b", .string("x\"y\\z/\né😀")), ("c", .object([])),
        ]))
    }

    func testJSONParserRefusesMalformedInputWithAnOffset() {
        for bad in ["", "[1,]", "{\"a\" 1}", "[1 2]", "\"abc", "tru", "[\"\u{01}\"]", "\"\\ud800\"", "01x", "[1] 2", "{1: 2}"] {
            XCTAssertThrowsError(try json(bad), bad)
        }
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        XCTAssertThrowsError(try json(deep)) { XCTAssertTrue("\($0)".contains("nested too deeply"), "\($0)") }
        XCTAssertThrowsError(try json("[1, x]")) { XCTAssertEqual(($0 as? JSONParser.Failure)?.offset, 4) }
    }

    func testJSONEntriesAsExportAndListWriteThem() throws {
        let entries = try RosterFile.parse(Array("""
            [{"jid": "bob@example.org", "name": "Bob", "groups": ["A", "B"], "subscription": "both", "ask": false,
              "presence": "online", "resources": []},
             {"jid": "carol", "name": null, "subscription": "from"},
             {"jid": "dave@example.org", "ask": true, "subscription": "none"}]
            """.utf8))
        XCTAssertEqual(entries.count, 3)
        XCTAssertEqual(entries[0], RosterFile.Entry(jid: "bob@example.org", name: .some("Bob"), groups: ["A", "B"], subscription: .both, ask: false))
        XCTAssertEqual(entries[1].name, .some(nil), "null clears the name")
        XCTAssertNil(entries[1].groups, "absent groups are left as they are")
        XCTAssertEqual(entries.map(\.wantsSubscription), [true, false, true])
        XCTAssertEqual(try RosterFile.parse(Array(#"{"contacts": [{"jid": "x@y.z"}]}"#.utf8)).count, 1)
    }

    func testJSONEntryErrorsNameTheContact() {
        for (text, reason) in [(#"[{"name": "x"}]"#, "contact #1"), (#"[{"jid": "a@b.c"}, {"jid": "d@e.f", "groups": "G"}]"#, "contact #2"),
                               (#"[{"jid": "a@b.c", "subscription": "remove"}]"#, "unknown subscription"), (#"{"a": 1}"#, "array")] {
            XCTAssertThrowsError(try RosterFile.parse(Array(text.utf8))) {
                XCTAssertEqual(($0 as? ToolFailure)?.code, .badInput)
                XCTAssertTrue(($0 as? ToolFailure)?.message.contains(reason) == true, "\($0)")
            }
        }
    }

    func testCSVQuotingAndGroupEscapesRoundTrip() throws {
        let items = [
            RosterItem(jid: try JID("bob@example.org"), name: "Bob \"B\", Jr.", subscription: .both, groups: ["Work; Team", "back\\slash"]),
            RosterItem(jid: try JID("carol@example.org"), subscription: .none, ask: true, groups: []),
        ]
        let csv = RosterFile.csv(items)
        XCTAssertEqual(csv, "jid,name,groups,subscription,ask\r\n"
                       + "bob@example.org,\"Bob \"\"B\"\", Jr.\",Work\\; Team;back\\\\slash,both,false\r\n"
                       + "carol@example.org,,,none,true\r\n", "roster CSV ends lines as the batch report does (RFC 4180 CRLF)")
        let entries = try RosterFile.parse(Array(csv.utf8))
        XCTAssertEqual(entries[0], RosterFile.Entry(jid: "bob@example.org", name: .some("Bob \"B\", Jr."), groups: ["Work; Team", "back\\slash"],
                                                    subscription: .both, ask: false))
        XCTAssertEqual(entries[1].name, .some(nil))
        XCTAssertEqual(entries[1].groups, [])
        XCTAssertTrue(entries[1].ask)
    }

    func testCSVExportNeverHandsASpreadsheetAFormula() throws {
        // A contact's own name (or a group) is text from the server.
        let items = [
            RosterItem(jid: try JID("eve@example.org"), name: "=HYPERLINK(\"http://evil.example\",\"x\")", subscription: .both,
                       groups: ["+cmd|' /C calc'!A0"]),
            RosterItem(jid: try JID("tab@example.org"), name: "@SUM(1+1)", subscription: .none, groups: ["-2+3"]),
            RosterItem(jid: try JID("ok@example.org"), name: "'Tis fine", subscription: .none, groups: []),
        ]
        let csv = RosterFile.csv(items)
        for line in csv.split(separator: "\r\n").dropFirst() {
            for cell in try CSVReader.parse(Array((line + "\r\n").utf8))[0].fields {
                XCTAssertFalse(["=", "+", "-", "@"].contains(cell.first), "cell \(cell) of \(line) would start a formula")
            }
        }
        XCTAssertTrue(csv.contains("\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\""), csv)
        XCTAssertTrue(csv.contains("ok@example.org,'Tis fine,"), "an apostrophe of its own is left alone: \(csv)")
        // Import reads back what export wrote.
        let entries = try RosterFile.parse(Array(csv.utf8))
        XCTAssertEqual(entries.map(\.name), [.some("=HYPERLINK(\"http://evil.example\",\"x\")"), .some("@SUM(1+1)"), .some("'Tis fine")])
        XCTAssertEqual(entries.map(\.groups), [["+cmd|' /C calc'!A0"], ["-2+3"], []])
    }

    func testCSVWithCRLFMultilineFieldsAndFewColumns() throws {
        let entries = try RosterFile.parse(Array("\u{FEFF}JID,Name\r\n\"a@b.c\",\"two\r\nlines\"\r\nd@e.f,\r\n\r\n".utf8))
        XCTAssertEqual(entries.map(\.jid), ["a@b.c", "d@e.f"])
        XCTAssertEqual(entries[0].name, .some("two\r\nlines"))
        XCTAssertNil(entries[0].groups)
        XCTAssertNil(entries[0].subscription)
        XCTAssertTrue(entries[0].wantsSubscription, "a file that does not say asks for presence, as add does")
        XCTAssertThrowsError(try RosterFile.parse(Array("name\nx\n".utf8)))
        XCTAssertThrowsError(try RosterFile.parse(Array("jid\n\"open\n".utf8)))
        XCTAssertThrowsError(try RosterFile.parse(Array("jid,subscription\na@b.c,maybe\n".utf8)))
        // A row with fewer fields than the header lost a delimiter somewhere: said, with its line.
        XCTAssertThrowsError(try RosterFile.parse(Array("jid,name\na@b.c,A\nd@e.f\n".utf8))) { error in
            XCTAssertEqual((error as? ToolFailure)?.message,
                           "invalid roster CSV: line 3: 1 field where the header has 2 (a missing delimiter, or a line break outside quotes?)")
        }
    }

    func testSemicolonAndUTF16RosterFilesFromSpreadsheets() throws {
        XCTAssertEqual(try RosterFile.parse(Array("jid;name;groups\na@b.c;Ann;Work\n".utf8)).map(\.jid), ["a@b.c"])
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "jid\tname\r\nzoë@b.c\tZoë\r\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let entries = try RosterFile.parse(utf16)
        XCTAssertEqual(entries.map(\.jid), ["zoë@b.c"])
        XCTAssertEqual(entries.first?.name, .some("Zoë"))
    }

    func testCSVErrorsNameThePhysicalLineAndRefuseInvalidUTF8() {
        // The bad row starts on line 5: a quoted name spans lines 2–3 and line 4 is blank.
        let text = "jid,name,subscription\na@b.c,\"two\nlines\",both\n\nd@e.f,,maybe\n"
        XCTAssertThrowsError(try RosterFile.parse(Array(text.utf8))) {
            XCTAssertEqual(($0 as? ToolFailure)?.message, "invalid roster CSV line 5: unknown subscription 'maybe'")
        }
        XCTAssertThrowsError(try RosterFile.parse(Array("jid\nok@b.c\n".utf8) + [0xC3, 0x28, 0x0A])) {
            XCTAssertEqual(($0 as? ToolFailure)?.code, .badInput)
            XCTAssertEqual(($0 as? ToolFailure)?.message, "invalid roster CSV: line 3: not valid UTF-8 (save the file as UTF-8)")
        }
    }

    func testValidText() {
        XCTAssertTrue(RosterFile.isValidText("Tab\tand\nnewline ünï"))
        XCTAssertFalse(RosterFile.isValidText("bell\u{07}"))
        XCTAssertFalse(RosterFile.isValidText("unit\u{1F}separator"))
    }

    func testUsernameColumnTakesTheGivenDomainAndRefusesAddresses() throws {
        let entries = try RosterFile.parse(Array("username,name\nann,Ann\n bob ,\n".utf8), domain: "school.example")
        XCTAssertEqual(entries.map(\.jid), ["ann@school.example", "bob@school.example"])
        XCTAssertEqual(try RosterFile.parse(Array("username\nann\n".utf8)).map(\.jid), ["ann"], "no domain: the account's, later")
        XCTAssertThrowsError(try RosterFile.parse(Array("username\nann@x.org\n".utf8), domain: "y.org"))
        XCTAssertThrowsError(try RosterFile.parse(Array("jid,username\na@x.org,b\n".utf8)))
    }
}
