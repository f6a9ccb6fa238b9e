import TextFormats
import XCTest
import XMPPServices
import XMPPStanzas
@testable import XMPPTools

/// The roster list's JSON, written a row at a time, against the whole list's tree.
final class RosterOutputTests: XCTestCase {
    private func tree(_ rows: [(RosterItem, ContactPresence)]) -> [UInt8] {
        JSONValue.array(rows.map { RosterOutput.json($0.0, presence: $0.1) }).prettyUTF8
    }

    func testPrettyJSONAgreesWithTheTree() throws {
        let online = ContactPresence(state: .away, status: "at \"lunch\"\n\u{202E}back", resources: [
            .init(resource: "phone", state: .away, status: nil, priority: -1),
            .init(resource: "desk \u{1F}", state: .online, status: "tab\there", priority: 5),
        ])
        let items = [
            RosterItem(jid: try JID("bob@example.org"), name: "Bob \"B\", Jr.\\", subscription: .both, groups: ["Work; Team", "back\\slash"]),
            RosterItem(jid: try JID("carol@xn--caf-dma.example"), subscription: .none, ask: true, approved: true),
            RosterItem(jid: try JID("Dörte@例え.jp"), name: "", subscription: .from, groups: ["Ünïcode ☃", "\u{7F}\u{85}"]),
            RosterItem(jid: try JID("example.net"), name: "a\u{0}b", subscription: .to, groups: ["one"]),
        ]
        let presences: [ContactPresence] = [.unknown, online, .offline, ContactPresence(state: .dnd, status: "", resources: [])]
        for count in 0...items.count {
            let rows = Array(zip(items, presences).prefix(count))
            XCTAssertEqual(String(decoding: RosterOutput.prettyJSON(rows), as: UTF8.self),
                           String(decoding: tree(rows), as: UTF8.self), "\(count) rows")
        }
        let many = (0..<300).map { i in
            (RosterItem(jid: try! JID("c\(i)@localhost"), name: i % 3 == 0 ? nil : "Contact \(i)", subscription: .both,
                        groups: Array(["G\(i % 7)", "H"].prefix(i % 3))), i % 2 == 0 ? ContactPresence.unknown : online)
        }
        XCTAssertEqual(RosterOutput.prettyJSON(many), tree(many))
        for flushAt in [1, 100, 4096] {
            var pieces: [UInt8] = []
            let rest = RosterOutput.prettyJSON(many, flushAt: flushAt) { pieces += $0 }
            pieces += rest
            XCTAssertEqual(pieces, tree(many), "flushed at \(flushAt)")
            var lines: [UInt8] = []
            let lastLines = RosterOutput.tabSeparatedList(many, flushAt: flushAt) { lines += $0 }
            lines += lastLines
            XCTAssertEqual(String(decoding: lines, as: UTF8.self), RosterOutput.tabSeparated(many.map(RosterOutput.listCells)))
        }
    }

    func testTabSeparatedListAgreesWithTheCells() throws {
        let away = ContactPresence(state: .away, status: "tab\there \u{1B}[31m\u{2028}\\", resources: [])
        let items = [
            RosterItem(jid: try JID("bob@example.org"), name: "Bob\tB\nJr.", subscription: .both, groups: ["Work\r", "a,b", "\u{202E}x"]),
            RosterItem(jid: try JID("carol@example.net"), subscription: .none, ask: true),
            RosterItem(jid: try JID("Dörte@例え.jp"), name: "Ünïcode ☃ \u{85}", subscription: .from, groups: ["G"]),
        ]
        let presences: [ContactPresence] = [away, .unknown, .offline]
        for count in 0...items.count {
            let rows = Array(zip(items, presences).prefix(count))
            XCTAssertEqual(String(decoding: RosterOutput.tabSeparatedList(rows), as: UTF8.self),
                           RosterOutput.tabSeparated(rows.map(RosterOutput.listCells)), "\(count) rows")
        }
    }
}
