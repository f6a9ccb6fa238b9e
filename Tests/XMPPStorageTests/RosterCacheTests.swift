import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage

/// The roster cache: versions and items stay consistent, pushes apply only on the version they
/// follow, and two processes' connections at once neither fail nor see half a roster.
final class RosterCacheTests: XCTestCase {
    private var home = ""

    override func setUp() {
        home = NSTemporaryDirectory() + "xt-rc-" + UUID().uuidString
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
    }

    private func open() throws -> RosterCache {
        RosterCache(cache: try Cache(paths: try Paths(environment: ["HOME": home])))
    }

    private func item(_ jid: String, _ name: String? = nil, _ sub: Subscription = .both, groups: [String] = []) throws -> RosterItem {
        RosterItem(jid: try JID(jid), name: name, subscription: sub, groups: groups)
    }

    func testReplaceAndLoadRoundTrip() throws {
        let cache = try open()
        let alice = try JID("alice@example.org")
        XCTAssertNil(try cache.load(account: alice))
        let items = [
            try item("zed@example.org", "Zed", .from, groups: ["Work", "Friends & Family", "ünïcode"]),
            RosterItem(jid: try JID("bob@example.org"), subscription: .none, ask: true, approved: true),
        ]
        try cache.replace(account: alice, ver: "7", items: items, now: 1000)
        let loaded = try XCTUnwrap(try cache.load(account: alice))
        XCTAssertEqual(loaded.ver, "7")
        XCTAssertEqual(loaded.updated, 1000)
        XCTAssertEqual(loaded.items, [items[1], items[0]], "ordered by JID, every field kept")
        XCTAssertEqual(try cache.contacts(account: alice), ["bob@example.org", "zed@example.org"])
        XCTAssertNil(try cache.load(account: try JID("other@example.org")), "rosters are per account")
    }

    func testLargeRosterInOneTransaction() throws {
        let cache = try open()
        let alice = try JID("alice@example.org")
        let items = try (0..<2500).map { try item(String(format: "c%05d@example.org", $0), "C\($0)", groups: ["G\($0 % 7)"]) }
        try cache.replace(account: alice, ver: "1", items: items, now: 1)
        XCTAssertEqual(try cache.load(account: alice)?.items, items)
        try cache.replace(account: alice, ver: "2", items: Array(items.prefix(3)), now: 2)
        XCTAssertEqual(try cache.load(account: alice)?.items.count, 3, "replace drops contacts that are gone")
    }

    func testPushesApplyOnlyOnTheVersionTheyFollow() throws {
        let cache = try open()
        let alice = try JID("alice@example.org")
        try cache.replace(account: alice, ver: "5", items: [try item("bob@example.org", "Bob")], now: 1)
        let add = RosterQuery(ver: "6", items: [try item("carol@example.org", "Carol", .none)])
        let remove = RosterQuery(ver: "7", items: [RosterItem(jid: try JID("bob@example.org"), subscription: .remove)])
        XCTAssertTrue(try cache.apply(account: alice, pushes: [add, remove], expectedVer: "5", now: 2))
        var loaded = try XCTUnwrap(try cache.load(account: alice))
        XCTAssertEqual(loaded.ver, "7")
        XCTAssertEqual(loaded.items.map(\.jid.description), ["carol@example.org"])

        // A push computed against an older copy is not mixed into a newer one.
        let stale = RosterQuery(ver: "6", items: [try item("dave@example.org")])
        XCTAssertFalse(try cache.apply(account: alice, pushes: [stale], expectedVer: "5", now: 3))
        loaded = try XCTUnwrap(try cache.load(account: alice))
        XCTAssertEqual(loaded.ver, "7")
        XCTAssertEqual(loaded.items.map(\.jid.description), ["carol@example.org"])

        // No cached copy: nothing to patch.
        XCTAssertFalse(try cache.apply(account: try JID("new@example.org"), pushes: [stale], expectedVer: nil, now: 3))
        try cache.remove(account: alice)
        XCTAssertNil(try cache.load(account: alice))
    }

    /// jabberd2 2.7 versions its rosters but sends pushes without a version (and keeps the
    /// version across a rename): after such a push the stored version is dropped, so the next
    /// list fetches the whole roster instead of being told a stale copy is current.
    func testAPushWithoutAVersionDropsTheStoredVersion() throws {
        let cache = try open()
        let alice = try JID("alice@example.org")
        try cache.replace(account: alice, ver: "23", items: [try item("p1@example.org")], now: 1)
        let rename = RosterQuery(ver: nil, items: [try item("p1@example.org", "N4")])
        XCTAssertTrue(try cache.apply(account: alice, pushes: [rename], expectedVer: "23", now: 2))
        let loaded = try XCTUnwrap(try cache.load(account: alice))
        XCTAssertNil(loaded.ver)
        XCTAssertEqual(loaded.items.first?.name, "N4")
        XCTAssertEqual(try cache.version(account: alice), .some(nil))
    }

    /// Two writers and a reader on separate connections (as separate processes have): no
    /// SQLITE_BUSY surfaces, and every read sees one writer's whole roster, never a mix.
    /// A copy fetched before another process's change must not overwrite what that process
    /// stored after it; without roster versions (jabberd2) only the marker can tell.
    func testACopyFetchedBeforeAnotherWriterDoesNotOverwriteIt() throws {
        let lister = try open(), renamer = try open()
        let alice = try JID("alice@example.org"), bob = try JID("bob@example.org")
        try lister.replace(account: alice, ver: nil, items: [try item("p1@example.org")], now: 1)

        let marker = try lister.changeMarker()  // the list asks the server here
        try renamer.replace(account: alice, ver: nil, items: [try item("p1@example.org", "N4")], now: 2)
        XCTAssertFalse(try lister.replace(account: alice, ver: nil, items: [try item("p1@example.org")], now: 3,
                                          unlessChangedSince: marker))
        XCTAssertEqual(try lister.load(account: alice)?.items.first?.name, "N4", "the later change stays")

        // Nobody wrote since the marker: the copy is stored; and an account with no cached roster
        // yet gets its copy whatever else was written meanwhile.
        let quiet = try lister.changeMarker()
        XCTAssertTrue(try lister.replace(account: alice, ver: nil, items: [try item("p1@example.org", "N5")], now: 4,
                                         unlessChangedSince: quiet))
        let before = try lister.changeMarker()
        try renamer.replace(account: alice, ver: nil, items: [try item("p1@example.org", "N6")], now: 5)
        XCTAssertTrue(try lister.replace(account: bob, ver: nil, items: [try item("q1@example.org")], now: 6,
                                         unlessChangedSince: before))
        XCTAssertEqual(try lister.load(account: bob)?.items.count, 1)
    }

    func testConcurrentWritersAndReaderStayConsistent() throws {
        _ = try open()  // create the schema once
        let alice = try JID("alice@example.org")
        let failures = Failures()
        let group = DispatchGroup()
        for writer in ["a", "b"] {
            let box = Box(try open())
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    for round in 0..<150 {
                        let ver = "\(writer)\(round)"
                        let items = try (0..<40).map { RosterItem(jid: try JID("c\($0)@example.org"), name: ver) }
                        try box.cache.replace(account: alice, ver: ver, items: items, now: round)
                    }
                } catch { failures.add("writer \(writer): \(error)") }
            }
        }
        let reader = Box(try open())
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            do {
                for _ in 0..<300 {
                    guard let roster = try reader.cache.load(account: alice) else { continue }
                    if roster.items.count != 40 || roster.items.contains(where: { $0.name != roster.ver }) {
                        failures.add("inconsistent snapshot at ver \(roster.ver ?? "nil")")
                    }
                }
            } catch { failures.add("reader: \(error)") }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(failures.all, [])
    }
}

private final class Box: @unchecked Sendable {
    let cache: RosterCache
    init(_ cache: RosterCache) { self.cache = cache }
}

private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
