import Foundation
import XCTest

/// The roster cache: versioned repeats transfer nothing, --cached works with the server down,
/// tools running at once share it, and completion reads it.
final class RosterCacheEndToEndTests: XCTestCase {
    func testRepeatListOfUnchangedRosterTransfersNoItems() throws {
        let w = try RosterWorld()
        let alice = try w.account("ca")
        let bob = w.tools.jid(ToolRunner.username("cb"))
        XCTAssertEqual(try w.roster(alice, ["add", bob, "--no-subscribe"]).status, 0)
        let first = try w.roster(alice, ["list", "--no-presence", "--trace"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let second = try w.roster(alice, ["list", "--no-presence", "--trace"])
        XCTAssertEqual(second.status, 0, second.stderr)
        let received = second.stderr.split(separator: "\n").filter { $0.hasPrefix("RECV ") }
        XCTAssertFalse(received.contains { $0.contains("jabber:iq:roster") }, "the server sent roster items again: \(received)")
        XCTAssertTrue(second.stderr.contains("<query xmlns='jabber:iq:roster' ver='"), second.stderr)
        XCTAssertEqual(second.stdout, first.stdout)
        XCTAssertEqual(second.stdout, "\(bob)\t\t\tnone\tunknown\t\n")
    }

    func testCachedListWorksWithTheServerStopped() throws {
        // A private server, so stopping it disturbs no other test.
        let server = try TestServer.startPrivate("prosody")
        defer { server.stop() }
        let w = try RosterWorld(serverArgs: server.serverArgs)
        let alice = try w.account("cs")
        let bob = w.tools.jid(ToolRunner.username("csb"))
        XCTAssertEqual(try w.roster(alice, ["add", bob, "--name", "Bob", "--group", "G", "--no-subscribe"]).status, 0)
        XCTAssertEqual(try w.roster(alice, ["list"]).status, 0)
        server.stop()
        let offline = try w.roster(alice, ["list"])
        XCTAssertEqual(offline.status, 6, offline.stderr)
        let cached = try w.roster(alice, ["list", "--cached", "--json"])
        XCTAssertEqual(cached.status, 0, cached.stderr)
        let list = try XCTUnwrap(try ToolRunner.json(cached) as? [[String: Any]])
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list[0]["jid"] as? String, bob)
        XCTAssertEqual(list[0]["name"] as? String, "Bob")
        XCTAssertEqual(list[0]["groups"] as? [String], ["G"])
        XCTAssertEqual(list[0]["presence"] as? String, "unknown")
        let completion = try w.tools.run("xmpp-roster", ["__complete", "contacts", "--account", alice])
        XCTAssertEqual(completion.stdout, bob + "\n")
        let groups = try w.tools.run("xmpp-roster", ["__complete", "groups", "--account", alice])
        XCTAssertEqual(groups.stdout, "G\n", "--group completes the cached roster's group names, offline")
        try server.restart()
        XCTAssertEqual(try w.roster(alice, ["list", "--no-presence"]).status, 0, "back after the restart")
    }

    func testCachedWithoutACacheIsNotFound() throws {
        let w = try RosterWorld()
        let alice = try w.account("cn")
        let r = try w.roster(alice, ["list", "--cached"])
        XCTAssertEqual(r.status, 4)
        XCTAssertEqual(r.stderr, "xmpp-roster: no cached roster for \(alice): run 'xmpp-roster list' once while online\n")
        XCTAssertEqual(try w.tools.run("xmpp-roster", ["__complete", "contacts", "--account", alice]).stdout, "")
    }

    func testToolsRunningAtOnceShareTheCache() throws {
        let w = try RosterWorld()
        let alice = try w.account("cc"), bob = try w.account("cd")
        for (account, contact) in [(alice, "p1"), (alice, "p2"), (bob, "q1")] {
            XCTAssertEqual(try w.roster(account, ["add", contact, "--no-subscribe"]).status, 0)
        }
        let results = Results()
        let group = DispatchGroup()
        for i in 0..<6 {
            let account = i % 2 == 0 ? alice : bob
            let args = i < 4 ? ["list", "--json"] : ["rename", i == 4 ? "p1" : "q1", "N\(i)"]
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let r = try? w.roster(account, args)
                results.add("\(args[0]) \(r?.status ?? -1) \(r?.stderr ?? "timeout")")
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(results.all.sorted(), ["list 0 ", "list 0 ", "list 0 ", "list 0 ", "rename 0 ", "rename 0 "])
        let a = try w.contacts(alice, ["--cached"]), b = try w.contacts(bob, ["--cached"])
        XCTAssertEqual(a.keys.sorted(), ["p1@localhost", "p2@localhost"])
        XCTAssertEqual(a["p1@localhost"]?["name"] as? String, "N4")
        XCTAssertEqual(b["q1@localhost"]?["name"] as? String, "N5")
        let completion = try w.tools.run("xmpp-roster", ["__complete", "contacts", "--account", alice])
        XCTAssertEqual(completion.stdout, "p1@localhost\np2@localhost\n")
        XCTAssertEqual(try w.tools.run("xmpp-roster", ["__complete", "groups", "--account", alice]).stdout, "",
                       "no contact is in a group")
    }
}

extension RosterCacheEndToEndTests {
    /// Completion answers for the account the command would use: -a/--account on the line, then
    /// XMPP_ACCOUNT (when not empty), then the active account (issue 41: it ignored XMPP_ACCOUNT).
    func testCompletionUsesTheAccountTheCommandWould() throws {
        let w = try RosterWorld()
        let alice = try w.account("xa"), bob = try w.account("xb"), carol = try w.account("xc")
        for (account, contact) in [(alice, "pa"), (bob, "pb"), (carol, "pc")] {
            XCTAssertEqual(try w.roster(account, ["add", contact, "--no-subscribe", "--group", "G" + contact]).status, 0)
        }
        XCTAssertEqual(try w.tools.run("xmpp-login", ["switch", alice]).status, 0)
        let domain = "@" + w.tools.server.domain
        func complete(_ kind: String, _ extra: [String], env: [String: String]) throws -> String {
            let r = try w.tools.run("xmpp-roster", ["__complete", kind] + extra, env: env)
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }
        XCTAssertEqual(try complete("contacts", [], env: [:]), "pa\(domain)\n", "the active account")
        XCTAssertEqual(try complete("contacts", [], env: ["XMPP_ACCOUNT": ""]), "pa\(domain)\n", "an empty XMPP_ACCOUNT is unset")
        XCTAssertEqual(try complete("contacts", [], env: ["XMPP_ACCOUNT": bob]), "pb\(domain)\n", "XMPP_ACCOUNT")
        XCTAssertEqual(try complete("groups", [], env: ["XMPP_ACCOUNT": bob]), "Gpb\n", "XMPP_ACCOUNT")
        XCTAssertEqual(try complete("contacts", ["--account", carol], env: ["XMPP_ACCOUNT": bob]), "pc\(domain)\n",
                       "--account on the line wins")

        // The checked-in bash script, with the real tool, as a shell with XMPP_ACCOUNT exported.
        let driver = """
            source "$1/completions/bash/xmpp-roster" || exit 1
            shift
            COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
            _xmpp_roster xmpp-roster "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        func bash(_ words: [String], env: [String: String]) throws -> String {
            var environment = w.tools.environment.merging(env) { $1 }
            environment["PATH"] = Paths.binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            let r = try Shell.run(["/bin/bash", "--norc", "--noprofile", "-c", driver, "bash", Paths.root] + words,
                                  environment: environment)
            XCTAssertEqual(r.stderr, "", "\(words)")
            return r.stdout
        }
        XCTAssertEqual(try bash(["xmpp-roster", "remove", ""], env: ["XMPP_ACCOUNT": bob]), "pb\(domain)\n")
        XCTAssertEqual(try bash(["xmpp-roster", "remove", ""], env: [:]), "pa\(domain)\n")
        XCTAssertEqual(try bash(["xmpp-roster", "-a", carol, "remove", ""], env: ["XMPP_ACCOUNT": bob]), "pc\(domain)\n")
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
