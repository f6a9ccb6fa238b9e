import TextFormats
import XCTest
import XMPPStanzas
@testable import XMPPTools

/// Text from the network printed for people: controls become visible escapes, so no line is
/// forged and nothing reaches the terminal as a command.
final class TerminalTextTests: XCTestCase {
    func testControlsBecomeVisibleEscapes() {
        XCTAssertEqual(TerminalText.escaped("a\nb\rc\td\u{1B}[31me"), #"a\nb\rc\td\e[31me"#)
        XCTAssertEqual(TerminalText.escaped("\u{0}\u{7}\u{7F}\u{85}\u{9B}"), "U+0000U+0007U+007FU+0085U+009B")
        XCTAssertEqual(TerminalText.escaped("\u{202A}\u{202E}\u{2066}\u{2069}\u{200E}\u{200F}\u{061C}\u{2028}\u{2029}"),
                       "U+202AU+202EU+2066U+2069U+200EU+200FU+061CU+2028U+2029")
        XCTAssertEqual(TerminalText.escaped("\r\n"), #"\r\n"#, "CRLF is two escapes, not one Character left raw")
    }

    func testOrdinaryTextIsUnchanged() {
        for text in ["", "plain", "ünïcødé ☃ 😀", "a\\b", "عربي", "e\u{301}", "\u{200D}zwj", "\u{A0}nbsp"] {
            XCTAssertEqual(TerminalText.escaped(text), text)
        }
    }

    func testBackslashIsDoubledOnlyWhenAsked() {
        XCTAssertEqual(TerminalText.escaped(#"a\nb"#), #"a\nb"#)
        XCTAssertEqual(TerminalText.escaped("a\\n\nb", escapingBackslash: true), #"a\\n\nb"#)
    }

    func testVCardTextEscapesEveryFieldButKeepsLineBreaksAsIndentedLines() throws {
        var card = VCard()
        card.fullName = "Eve\u{1B}[31m red"
        card.note = "first\r\nsecond\u{202E}\rthird"
        card.url = "https://example.org/\nforged: line"
        let lines = VCardRender.text(VCardResult(jid: try JID("eve@example.org"), card: card))
        XCTAssertEqual(lines, [
            "vCard of   eve@example.org",
            #"Full name  Eve\e[31m red"#,
            "URL        https://example.org/",
            "           forged: line",
            "Note       first",
            "           secondU+202E",
            "           third",
        ])
        XCTAssertFalse(lines.joined().unicodeScalars.contains { TerminalText.needsEscape($0) })
    }

    func testVCardTabSeparatedLinesEscapeControlsAndBackslashes() throws {
        var card = VCard()
        card.note = "a\\b\nc\td\u{1B}e\u{9B}"
        let r = VCardResult(jid: try JID("eve@example.org"), card: card)
        XCTAssertEqual(VCardRender.tsv(r), ["note\t" + #"a\\b\nc\td\eeU+009B"#])
    }

    /// Every `get --json` object has every documented key (null or [] when there is nothing),
    /// a card and a failure alike, so JSON Lines have one shape.
    func testEveryJSONLineHasEveryDocumentedKey() throws {
        let r = VCardResult(jid: try JID("eve@example.org"), card: VCard())
        let cached = VCardResult(jid: try JID("eve@example.org"), card: VCard(), cachedAt: 0)
        let failure = ToolFailure(.notFound, "eve@example.org has no vCard")
        XCTAssertEqual(keys(VCardRender.json(r)), VCardRender.jsonKeys)
        XCTAssertEqual(keys(VCardRender.json(cached)), VCardRender.jsonKeys)
        for line in [VCardRender.jsonLine(r), VCardRender.jsonLine(cached), VCardRender.failureLine(label: "x@y@z", failure)] {
            XCTAssertEqual(keys(line), VCardRender.jsonKeys + VCardRender.listKeys, line.compact)
        }
        XCTAssertEqual(VCardRender.json(r).compact.contains(#""fetched_at":null"#), true)
        let failed = VCardRender.failureLine(label: "x@y@z", failure).compact
        XCTAssertTrue(failed.hasPrefix(#"{"jid":"x@y@z","source":null,"fetched_at":null,"fullname":null,"#), failed)
        XCTAssertTrue(failed.hasSuffix(#""error":"eve@example.org has no vCard","exit_code":4}"#), failed)
        for field in ["email", "fullname"] {
            XCTAssertEqual(keys(VCardRender.fieldLine(jid: "a@b", field: field, values: [])), ["jid", field] + VCardRender.listKeys)
            XCTAssertEqual(keys(VCardRender.fieldLine(jid: "a@b", field: field, values: [], failure: failure)),
                           ["jid", field] + VCardRender.listKeys)
        }
        XCTAssertEqual(VCardRender.fieldLine(jid: "a@b", field: "email", values: [], failure: failure).compact,
                       #"{"jid":"a@b","email":[],"error":"eve@example.org has no vCard","exit_code":4}"#)
        XCTAssertEqual(VCardRender.fieldLine(jid: "a@b", field: "fullname", values: ["A"]).compact,
                       #"{"jid":"a@b","fullname":"A","error":null,"exit_code":0}"#)
    }

    func testTheManualListsEveryJSONKey() {
        let text = VCardTool.Get.spec.discussion.joined(separator: " ")
        for key in VCardRender.jsonKeys + VCardRender.listKeys {
            XCTAssertTrue(text.contains("\"\(key)\""), "xmpp-vcard(1) does not name \(key)")
        }
    }

    private func keys(_ v: JSONValue) -> [String] {
        if case .object(let members) = v { return members.map(\.0) }
        return []
    }
}
