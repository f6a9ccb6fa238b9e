import Foundation
import XCTest

/// The refresh reads what clients change beside the card: a pupil who renames themselves in
/// their client changes only the PEP nickname node (XEP-0172), one who changes their photo the
/// PEP avatar (XEP-0084). Both are drift, planned back to the file; a server as sync left it
/// plans nothing (the photo sync published is recognised by its id, the SHA-1 of the image as
/// the batch resized it).
final class SyncProfileDriftEndToEndTests: XCTestCase {
    func testANicknameAndAPhotoChangedInAClientArePlannedBackToTheFile() throws {
        let s = try SyncSetting()
        let t = s.t
        let pupils = s.jids("pd", 2)
        let photo = t.home + "/photo.png", other = t.home + "/other.png"
        try TestPNG.rgb(width: 60, height: 60, seed: 7).write(to: URL(fileURLWithPath: photo))
        try TestPNG.rgb(width: 60, height: 60, seed: 8).write(to: URL(fileURLWithPath: other))
        var csvText = "username,nickname,avatar\r\n"
        for (i, p) in pupils.enumerated() { csvText += "\(p.split(separator: "@")[0]),Pupil \(i),\(photo)\r\n" }
        let csv = t.home + "/class.csv", report = t.home + "/class-pw.csv"
        try Data(csvText.utf8).write(to: URL(fileURLWithPath: csv))
        func sync(_ extra: [String] = []) throws -> RunResult { try s.sync(csv, report: report, extra) }
        func drift() throws -> (status: Int32, lines: [String]) {
            let r = try sync(["--dry-run", "--json"])
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout + r.stderr)
            return (r.status, (json["drift"] as? [[String: Any]] ?? []).map {
                "\($0["jid"] as? String ?? "") \($0["what"] as? String ?? ""): \($0["action"] as? String ?? "")"
            }.sorted())
        }
        let first = try sync()
        XCTAssertEqual(first.status, 13, first.stderr)
        let clean = try drift()
        XCTAssertEqual(clean.status, 0, "the nickname and photo sync set are seen as its own: \(clean.lines)")

        let passwords = try SyncEndToEndTests.reportPasswords(report)
        let nick = try t.run("xmpp-vcard", ["set", "--nickname", "xXx", "--store", "nick", "-a", pupils[0]] + t.serverArgs,
                             password: passwords[pupils[0]])
        XCTAssertEqual(nick.status, 0, nick.stderr)
        let newPhoto = try t.run("xmpp-avatar", ["set", other, "-a", pupils[1]] + t.serverArgs, password: passwords[pupils[1]])
        XCTAssertEqual(newPhoto.status, 0, newPhoto.stderr)

        let seen = try drift()
        XCTAssertEqual(seen.status, 13)
        XCTAssertEqual(seen.lines, ["\(pupils[0]) nickname changed on the server: 'xXx': 'Pupil 0' from the file",
                                    "\(pupils[1]) photo changed on the server: the file's photo again"])
        let applied = try sync()
        XCTAssertEqual(applied.status, 13, applied.stderr)
        let after = try drift()
        XCTAssertEqual(after.status, 0, "the file's nickname and photo are back: \(after.lines)")
        let nickNow = try t.run("xmpp-vcard", ["get", "--store", "nick", "--json", "-a", pupils[0]] + t.serverArgs, password: passwords[pupils[0]])
        XCTAssertTrue(nickNow.stdout.contains("Pupil 0"), nickNow.stdout + nickNow.stderr)
    }
}
