import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage

/// The roster cache: versions and items stay consistent, pushes apply only on the version they
/// follow, and two processes' connections at once neither fail nor see half a roster.
final class RosterCacheTests: XCTestCase {
    private var home = ""

    override func setUpWithError() throws { home = try scratchDirectory("rc", created: false) }

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

    func testPushesApplyOnlyOnTheCopyTheyFollow() throws {
        let cache = try open()
        let alice = try JID("alice@example.org")
        let first = try cache.replace(account: alice, ver: "5", items: [try item("bob@example.org", "Bob")], now: 1)
        XCTAssertGreaterThan(first, 0, "0 stands for no stored copy")
        let add = RosterQuery(ver: "6", items: [try item("carol@example.org", "Carol", .none)])
        let remove = RosterQuery(ver: "7", items: [RosterItem(jid: try JID("bob@example.org"), subscription: .remove)])
        let patched = try XCTUnwrap(try cache.apply(account: alice, pushes: [add, remove],
                                                    onto: RosterCacheStamp(ver: "5", generation: first), now: 2))
        XCTAssertEqual(patched.ver, "7")
        XCTAssertNotEqual(patched.generation, first, "every write is a new generation")
        var loaded = try XCTUnwrap(try cache.load(account: alice))
        XCTAssertEqual(loaded.stamp, patched)
        XCTAssertEqual(loaded.items.map(\.jid.description), ["carol@example.org"])

        // A push computed against an older copy is not mixed into a newer one: neither its
        // generation nor its version is the stored copy's.
        let stale = RosterQuery(ver: "6", items: [try item("dave@example.org")])
        XCTAssertNil(try cache.apply(account: alice, pushes: [stale], onto: RosterCacheStamp(ver: "5", generation: first), now: 3))
        loaded = try XCTUnwrap(try cache.load(account: alice))
        XCTAssertEqual(loaded.ver, "7")
        XCTAssertEqual(loaded.items.map(\.jid.description), ["carol@example.org"])

        // Another tool stored the copy this one fetched (the server's version says so): it follows.
        let other = try cache.replace(account: alice, ver: "8", items: [try item("carol@example.org", "Carol", .none)], now: 4)
        let rename = RosterQuery(ver: "9", items: [try item("carol@example.org", "C", .none)])
        XCTAssertEqual(try cache.apply(account: alice, pushes: [rename], onto: RosterCacheStamp(ver: "8", generation: other - 1), now: 5)?.ver, "9")
        XCTAssertEqual(try cache.load(account: alice)?.items.first?.name, "C")

        // No cached copy: nothing to patch.
        XCTAssertNil(try cache.apply(account: try JID("new@example.org"), pushes: [stale], onto: RosterCacheStamp(ver: nil, generation: 0), now: 3))
        try cache.remove(account: alice)
        XCTAssertNil(try cache.load(account: alice))
        XCTAssertNil(try cache.stamp(account: alice))
    }

    /// jabberd2 2.7 versions its rosters but sends pushes without a version (and keeps the
    /// version across a rename): after such a push the stored version is dropped, so the next
    /// list fetches the whole roster instead of being told a stale copy is current. A copy
    /// without a version is followed only by the tool that holds that very copy.
    func testAPushWithoutAVersionDropsTheStoredVersion() throws {
        let cache = try open()
        let alice = try JID("alice@example.org")
        let generation = try cache.replace(account: alice, ver: "23", items: [try item("p1@example.org")], now: 1)
        let rename = RosterQuery(ver: nil, items: [try item("p1@example.org", "N4")])
        let patched = try XCTUnwrap(try cache.apply(account: alice, pushes: [rename], onto: RosterCacheStamp(ver: "23", generation: generation), now: 2))
        let loaded = try XCTUnwrap(try cache.load(account: alice))
        XCTAssertNil(loaded.ver)
        XCTAssertEqual(loaded.items.first?.name, "N4")
        XCTAssertEqual(try cache.stamp(account: alice), RosterCacheStamp(ver: nil, generation: patched.generation))
        let again = RosterQuery(ver: nil, items: [try item("p1@example.org", "N5")])
        XCTAssertNil(try cache.apply(account: alice, pushes: [again], onto: RosterCacheStamp(ver: nil, generation: generation), now: 3),
                     "no version on either side says nothing: only the generation could")
        XCTAssertNotNil(try cache.apply(account: alice, pushes: [again], onto: patched, now: 3))
        XCTAssertEqual(try cache.load(account: alice)?.items.first?.name, "N5")
    }

    /// Two writers and a reader on separate connections (as separate processes have): no
    /// SQLITE_BUSY surfaces, and every read sees one writer's whole roster, never a mix.
    /// A copy fetched before another process's change must not overwrite what that process
    /// stored after it; without roster versions (jabberd2) only the generation can tell.
    func testACopyFetchedBeforeAnotherWriterDoesNotOverwriteIt() throws {
        let lister = try open(), renamer = try open()
        let alice = try JID("alice@example.org"), bob = try JID("bob@example.org")
        try lister.replace(account: alice, ver: nil, items: [try item("p1@example.org")], now: 1)

        let seen = try XCTUnwrap(try lister.stamp(account: alice))  // the list asks the server here
        try renamer.replace(account: alice, ver: nil, items: [try item("p1@example.org", "N4")], now: 2)
        XCTAssertNil(try lister.replace(account: alice, ver: nil, items: [try item("p1@example.org")], now: 3,
                                        ifGeneration: seen.generation))
        XCTAssertEqual(try lister.load(account: alice)?.items.first?.name, "N4", "the later change stays")

        // Nobody wrote this account's roster since: the copy is stored, whatever other accounts'
        // rosters were written meanwhile (CI once saw every list of one account skip its store
        // because a second account's tools wrote, and the rename's push then had no copy to follow).
        let quiet = try XCTUnwrap(try lister.stamp(account: alice))
        try renamer.replace(account: bob, ver: nil, items: [try item("q1@example.org", "N5")], now: 4)
        XCTAssertNotNil(try lister.replace(account: alice, ver: nil, items: [try item("p1@example.org", "N5")], now: 4,
                                           ifGeneration: quiet.generation))
        XCTAssertEqual(try lister.load(account: alice)?.items.first?.name, "N5")

        // No copy was cached when the list asked: stored if there still is none, not over one
        // another tool stored meanwhile.
        let carol = try JID("carol@example.org")
        XCTAssertNil(try lister.stamp(account: carol))
        XCTAssertNotNil(try lister.replace(account: carol, ver: nil, items: [try item("r1@example.org")], now: 5, ifGeneration: 0))
        XCTAssertNil(try lister.replace(account: carol, ver: nil, items: [], now: 6, ifGeneration: 0))
        XCTAssertEqual(try lister.load(account: carol)?.items.count, 1)
        XCTAssertEqual(try lister.load(account: bob)?.items.first?.name, "N5")
    }

    func testConcurrentWritersAndReaderStayConsistent() throws {
        _ = try open()  // create the schema once
        let alice = try JID("alice@example.org")
        let failures = Failures()
        let group = DispatchGroup()
        for writer in ["a", "b"] {
            let box = Box(try open())
            failures.detach("writer \(writer)", in: group) {
                for round in 0..<150 {
                    let ver = "\(writer)\(round)"
                    let items = try (0..<40).map { RosterItem(jid: try JID("c\($0)@example.org"), name: ver) }
                    try box.cache.replace(account: alice, ver: ver, items: items, now: round)
                }
            }
        }
        let reader = Box(try open())
        failures.detach("reader", in: group) {
            for _ in 0..<300 {
                guard let roster = try reader.cache.load(account: alice) else { continue }
                if roster.items.count != 40 || roster.items.contains(where: { $0.name != roster.ver }) {
                    failures.add("inconsistent snapshot at ver \(roster.ver ?? "nil")")
                }
            }
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

    /// Runs `body` on a thread of its own within `group`; what it throws is a failure named `name`.
    func detach(_ name: String, in group: DispatchGroup, _ body: @escaping @Sendable () throws -> Void) {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            do { try body() } catch { self.add("\(name): \(error)") }
        }
    }
}
