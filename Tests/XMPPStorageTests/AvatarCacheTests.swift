import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage

/// The avatar cache: images once per SHA-1, owners per (account, JID), unreferenced images collected.
final class AvatarCacheTests: XCTestCase {
    private var home = ""
    private var cache: AvatarCache!
    private var database: Database!
    private let alice = try! JID("alice@example.org")
    private let bob = try! JID("bob@example.org")
    private let carol = try! JID("carol@example.org")

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "xt-avatar-cache-" + UUID().uuidString
        let opened = try Cache(paths: Paths(environment: ["HOME": home]))
        database = opened.database
        cache = AvatarCache(cache: opened)
    }

    override func tearDownWithError() throws {
        cache = nil
        database = nil
        try? FileManager.default.removeItem(atPath: home)
    }

    private func image(_ hash: String, _ bytes: [UInt8], width: Int? = 100) -> AvatarCache.Image {
        AvatarCache.Image(hash: hash, type: "image/png", width: width, height: width, data: bytes)
    }

    func testStoreAndLoadRoundTrip() throws {
        let entry = AvatarCache.Entry(jid: bob, image: image("aa11", [1, 2, 3]), source: "pep", fetchedAt: 1_700_000_000)
        try cache.store(entry, account: alice)
        XCTAssertEqual(try cache.load(account: alice, jid: bob), entry)
        XCTAssertNil(try cache.load(account: bob, jid: bob), "entries belong to the account that fetched them")
        XCTAssertEqual(try cache.image(hash: "AA11"), entry.image, "ids are compared in lowercase")
        XCTAssertNil(try cache.image(hash: "ff00"))
    }

    func testSameImageIsStoredOnceForEveryOwner() throws {
        let shared = image("bb22", Array(repeating: 7, count: 5000))
        try cache.store(.init(jid: bob, image: shared, source: "pep", fetchedAt: 1), account: alice)
        try cache.store(.init(jid: carol, image: shared, source: "vcard", fetchedAt: 2), account: alice)
        try cache.store(.init(jid: carol, image: shared, source: "pep", fetchedAt: 3), account: bob)
        XCTAssertEqual(try cache.imageCount(), 1)
        XCTAssertEqual(try database.query("SELECT count(*) FROM avatar_owners_v1").first?.first?.int, 3)
        XCTAssertEqual(try cache.load(account: alice, jid: carol)?.source, "vcard")
    }

    func testReplacedImageIsCollectedWhenNobodyHasIt() throws {
        try cache.store(.init(jid: bob, image: image("old1", [1]), source: "pep", fetchedAt: 1), account: alice)
        try cache.store(.init(jid: carol, image: image("old2", [2]), source: "pep", fetchedAt: 1), account: alice)
        try cache.store(.init(jid: carol, image: image("old1", [1]), source: "pep", fetchedAt: 1), account: bob)
        // bob changes avatar: old1 stays (carol-as-bob still has it), old2 goes when carol changes too.
        try cache.store(.init(jid: bob, image: image("new1", [3]), source: "pep", fetchedAt: 2), account: alice)
        XCTAssertNotNil(try cache.image(hash: "old1"))
        try cache.store(.init(jid: carol, image: image("new1", [3]), source: "pep", fetchedAt: 2), account: alice)
        XCTAssertNil(try cache.image(hash: "old2"))
        XCTAssertEqual(try cache.imageCount(), 2)
    }

    func testForgetRemovesOwnerAndUnreferencedImage() throws {
        try cache.store(.init(jid: bob, image: image("cc33", [9]), source: "vcard", fetchedAt: 1), account: alice)
        try cache.store(.init(jid: carol, image: image("cc33", [9]), source: "vcard", fetchedAt: 1), account: alice)
        try cache.forget(account: alice, jid: bob)
        XCTAssertNil(try cache.load(account: alice, jid: bob))
        XCTAssertNotNil(try cache.image(hash: "cc33"), "carol still has it")
        try cache.forget(account: alice, jid: carol)
        XCTAssertEqual(try cache.imageCount(), 0)
        try cache.forget(account: alice, jid: carol)  // forgetting twice is fine
    }

    func testLaterLookAddsDimensionsButNeverErasesThem() throws {
        try cache.store(.init(jid: bob, image: image("dd44", [4], width: nil), source: "vcard", fetchedAt: 1), account: alice)
        XCTAssertNil(try cache.image(hash: "dd44")?.width)
        try cache.store(.init(jid: bob, image: image("dd44", [4], width: 64), source: "pep", fetchedAt: 2), account: alice)
        XCTAssertEqual(try cache.image(hash: "dd44")?.width, 64)
        try cache.store(.init(jid: carol, image: image("dd44", [4], width: nil), source: "vcard", fetchedAt: 3), account: alice)
        XCTAssertEqual(try cache.image(hash: "dd44")?.height, 64)
    }

    func testTablesSurviveReopening() throws {
        try cache.store(.init(jid: bob, image: image("ee55", [5, 5]), source: "pep", fetchedAt: 1), account: alice)
        cache = nil
        database = nil
        let reopened = AvatarCache(cache: try Cache(paths: Paths(environment: ["HOME": home])))
        XCTAssertEqual(try reopened.load(account: alice, jid: bob)?.image.data, [5, 5])
    }
}
