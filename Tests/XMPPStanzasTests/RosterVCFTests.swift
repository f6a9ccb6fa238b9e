import Foundation
import XCTest
import XMPPStanzas

/// `xmpp-roster export --format vcf`'s cards (issue 27 item 9): one vCard 4.0 per contact with
/// FN and an IMPP xmpp: URI, hostile names and groups escaped, read back by the .vcf reader.
final class RosterVCFTests: XCTestCase {
    func testOneCardPerContactWithItsAddressAndEscapedText() throws {
        let hostile = "Evil\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:forged; a,b\\"
        let items = [
            RosterItem(jid: try JID("juliet@example.org"), name: "Juliet Capulet", subscription: .both, groups: ["Class 5A", "x,y;z"]),
            RosterItem(jid: try JID("100%real@example.org"), name: hostile, subscription: .to),
            RosterItem(jid: try JID("jürgen@example.org"), name: nil, subscription: .none),
            RosterItem(jid: try JID("long@example.org"), name: String(repeating: "東京", count: 40), subscription: .both),
        ]
        let text = RosterVCF.write(items)
        XCTAssertTrue(text.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:individual\r\nFN:Juliet Capulet\r\nIMPP:xmpp:juliet@example.org\r\n"
                                     + "CATEGORIES:Class 5A,x\\,y\\;z\r\nEND:VCARD\r\n"), text)
        XCTAssertEqual(text.components(separatedBy: "\r\n").filter { $0 == "BEGIN:VCARD" }.count, 4, "one card per contact, none forged")
        XCTAssertTrue(text.contains("IMPP:xmpp:100%25real@example.org\r\n"), text)
        XCTAssertTrue(text.contains("FN:jürgen@example.org\r\nIMPP:xmpp:j%C3%BCrgen@example.org\r\n"), "no name: the JID is the FN")
        for line in text.components(separatedBy: "\r\n") { XCTAssertLessThanOrEqual(line.utf8.count, 75, line) }

        let cards = try VCFReader.read(Array(text.utf8)).map(\.card)
        XCTAssertEqual(cards.map(\.fullName), ["Juliet Capulet", hostile.replacingOccurrences(of: "\r\n", with: "\n"), "jürgen@example.org", String(repeating: "東京", count: 40)])
        XCTAssertEqual(cards.map(\.jabberID), ["juliet@example.org", "100%real@example.org", "jürgen@example.org", "long@example.org"])
        XCTAssertEqual(cards[0].extras.first { $0.name == "CATEGORIES" }?.elements.map(\.text), ["Class 5A", "x,y;z"])
        XCTAssertEqual(RosterVCF.write([]), "")
    }
}
