import Foundation
import XCTest

/// XEP-0153 in our own presence: every available presence the tools send carries
/// `<x xmlns='vcard-temp:x:update'>` with the vCard photo's hash (or an empty `<photo/>`).
final class PresencePhotoEndToEndTests: XCTestCase {
    /// The presence lines of a `--trace`.
    static func sentPresence(_ r: RunResult) -> [String] {
        r.stderr.split(separator: "\n").map(String.init).filter { $0.contains("<presence") && !$0.contains("type=") }
    }

    /// `pending` goes online (waiting requests are redelivered only after initial presence);
    /// `list` no longer does where the server answers a client's probes.
    func testPresenceAdvertisesThePhotoHashAndAnEmptyPhotoWithoutOne() throws {
        let (t, _) = try VCardEndToEndTests.account("xp")
        let none = try t.run("xmpp-roster", ["pending", "--trace"])
        XCTAssertEqual(none.status, 0, none.stderr)
        let bare = Self.sentPresence(none)
        XCTAssertFalse(bare.isEmpty, none.stderr)
        XCTAssertTrue(bare.allSatisfy { $0.contains("vcard-temp:x:update") && $0.contains("<photo/>") }, "\(bare)")

        XCTAssertEqual(try t.run("xmpp-vcard", try VCardEndToEndTests.keptFields(t, photo: true)).status, 0)
        let hash = try VCardEndToEndTests.resizedPhoto(t).sha1
        let with = try t.run("xmpp-roster", ["pending", "--trace"])
        XCTAssertEqual(with.status, 0, with.stderr)
        let sent = Self.sentPresence(with)
        XCTAssertFalse(sent.isEmpty, with.stderr)
        XCTAssertTrue(sent.allSatisfy { $0.contains("vcard-temp:x:update") && $0.contains("<photo>\(hash)</photo>") }, "\(sent)")
    }
}
