import Foundation
import XCTest
import XMPPStanzas
@testable import XMPPStorage

/// The vCard area of the SQLite cache.
final class VCardCacheTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws { directory = try scratchDirectory("vcard-cache") }

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
        try cacheFile.database.query("INSERT INTO vcard_cache_v2 VALUES ('a@x', 'b@x', '<not xml', NULL, NULL, 0)")
        XCTAssertNil(try VCardCache(cache: cacheFile).load(account: try JID("a@x"), jid: try JID("b@x")))
        try cacheFile.database.query("INSERT INTO vcard_cache_v2 VALUES ('a@x', 'c@x', '<vCard xmlns=\"vcard-temp\"/>', '<x', NULL, 0)")
        XCTAssertNil(try VCardCache(cache: cacheFile).load(account: try JID("a@x"), jid: try JID("c@x")),
                     "unreadable vCard4 properties make the row unreadable, not a card without them")
    }

    /// The vCard4 node's unmapped properties ride along (for `get --cached --format vcf4`),
    /// verbatim: a second FN (an extra of its node) stays a property, where reading the document
    /// as a vCard4 would map it.
    /// A write that did not read them (a vcard-temp-only set) keeps what is stored.
    func testKeepsTheVCard4PropertiesVerbatimAndAWriteWithoutThemKeepsThem() throws {
        let cache = try makeCache()
        let a = try JID("a@x"), b = try JID("b@x")
        let extras = try VCard4Extras(xml:
            "<vcard xmlns='urn:ietf:params:xml:ns:vcard-4.0'><fn><text>Second</text></fn>"
                + "<gender><sex>F</sex></gender><x-custom><text>a &amp; b</text></x-custom></vcard>")
        XCTAssertEqual(extras.properties.map(\.name), ["fn", "gender", "x-custom"], "read verbatim: the FN is not mapped")
        var card = VCard()
        card.fullName = "One"
        try cache.store([VCardCache.Entry(jid: b, card: card, vcard4Extras: extras, photoHash: nil, fetchedAt: 1)],
                        account: a)
        XCTAssertEqual(try cache.load(account: a, jid: b)?.vcard4Extras, extras)

        card.nickname = "N"
        try cache.store([VCardCache.Entry(jid: b, card: card, vcard4Extras: nil, photoHash: nil, fetchedAt: 2)], account: a)
        let kept = try XCTUnwrap(try cache.load(account: a, jid: b))
        XCTAssertEqual(kept.card.nickname, "N")
        XCTAssertEqual(kept.vcard4Extras, extras, "not read, so not dropped")

        try cache.store([VCardCache.Entry(jid: b, card: card, vcard4Extras: VCard4Extras([]), photoHash: nil, fetchedAt: 3)], account: a)
        XCTAssertNil(try cache.load(account: a, jid: b)?.vcard4Extras, "read and empty: none stored")
    }
}
