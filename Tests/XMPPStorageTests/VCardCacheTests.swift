import Foundation
import XCTest
import XMPPStanzas
@testable import XMPPStorage

/// The vCard area of the SQLite cache.
final class VCardCacheTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "vcard-cache-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func makeCache() throws -> VCardCache {
        VCardCache(cache: try Cache(paths: try Paths(environment: ["HOME": directory, "XDG_CACHE_HOME": directory])))
    }

    func testStoresAndLoadsByAccountAndJID() throws {
        let cache = try makeCache()
        let alice = try JID("alice@example.org"), bob = try JID("bob@example.org"), carol = try JID("carol@example.org")
        var card = VCard()
        card.nickname = "Bobby ☃"
        card.note = "line 1\nline 2"
        card.photo = VCard.Photo(type: "image/png", base64: "iVBORw0KGgo=")
        card.extras = [try VCard(xml: "<vCard xmlns='vcard-temp'><TZ>+01:00</TZ></vCard>").extras[0]]
        try cache.store([VCardCache.Entry(jid: try JID("bob@example.org/phone"), card: card, photoHash: "abc123", fetchedAt: 1700)],
                        account: try JID("alice@example.org/res"))
        let entry = try XCTUnwrap(try cache.load(account: alice, jid: bob))
        XCTAssertEqual(entry, VCardCache.Entry(jid: bob, card: card, photoHash: "abc123", fetchedAt: 1700))
        XCTAssertEqual(try cache.photoHash(account: alice, jid: bob), "abc123")
        // Keyed by account too: carol's view of bob is separate.
        XCTAssertNil(try cache.load(account: carol, jid: bob))
        XCTAssertNil(try cache.load(account: alice, jid: carol))
        XCTAssertEqual(try cache.count(account: alice), 1)
        XCTAssertEqual(try cache.jids(account: alice), [bob])
        XCTAssertEqual(try cache.jids(account: carol), [])
    }

    func testReplacesAndRemoves() throws {
        let cache = try makeCache()
        let a = try JID("a@x"), b = try JID("b@x")
        var one = VCard()
        one.fullName = "One"
        var two = VCard()
        two.fullName = "Two"
        try cache.store([VCardCache.Entry(jid: b, card: one, photoHash: "h1", fetchedAt: 1)], account: a)
        try cache.store([VCardCache.Entry(jid: b, card: two, photoHash: nil, fetchedAt: 2)], account: a)
        let entry = try XCTUnwrap(try cache.load(account: a, jid: b))
        XCTAssertEqual(entry.card.fullName, "Two")
        XCTAssertNil(entry.photoHash)
        XCTAssertEqual(entry.fetchedAt, 2)
        try cache.remove(account: a, jid: b)
        XCTAssertNil(try cache.load(account: a, jid: b))
    }

    func testSurvivesReopeningAndStoresManyInOneTransaction() throws {
        let a = try JID("a@x")
        let entries = try (0..<500).map { i -> VCardCache.Entry in
            var c = VCard()
            c.nickname = "n\(i)"
            return VCardCache.Entry(jid: try JID("u\(i)@x"), card: c, photoHash: nil, fetchedAt: i)
        }
        try makeCache().store(entries, account: a)
        let reopened = try makeCache()
        XCTAssertEqual(try reopened.count(account: a), 500)
        XCTAssertEqual(try reopened.load(account: a, jid: try JID("u499@x"))?.card.nickname, "n499")
    }

    func testUnreadableRowCountsAsMissing() throws {
        let cacheFile = try Cache(paths: try Paths(environment: ["HOME": directory, "XDG_CACHE_HOME": directory]))
        try cacheFile.database.query("INSERT INTO vcard_cache_v1 VALUES ('a@x', 'b@x', '<not xml', NULL, 0)")
        XCTAssertNil(try VCardCache(cache: cacheFile).load(account: try JID("a@x"), jid: try JID("b@x")))
    }
}
