import Foundation
import XCTest

/// xmpp-roster add/pending/approve/deny/remove/rename/group against the real server.
final class RosterSubscriptionEndToEndTests: XCTestCase {
    func testRequestPendingApproveBoth() throws {
        try TestServer.require().require("rfc6121-roster", "the expected roster and subscription states are RFC 6121's")
        let w = try RosterWorld()
        let alice = try w.account("ra"), bob = try w.account("rb")
        let added = try XCTUnwrap(try w.json(alice, ["add", bob, "--name", "Bob", "--group", "Friends", "--group", "Work"]) as? [String: Any])
        XCTAssertEqual(added["action"] as? String, "added")
        XCTAssertEqual(added["subscription"] as? String, "none")
        XCTAssertEqual(added["ask"] as? Bool, true, "the push after the request shows it pending out")
        XCTAssertEqual(added["subscription_requested"] as? Bool, true)

        XCTAssertEqual(try w.pending(bob), w.expectedPending([alice]))
        let approved = try XCTUnwrap(try w.json(bob, ["approve", alice, "--add-back"]) as? [[String: Any]])
        XCTAssertEqual(approved.count, 1)
        XCTAssertEqual(approved[0]["result"] as? String, "approved")
        XCTAssertEqual(approved[0]["subscribed_back"] as? Bool, true)
        XCTAssertEqual(try w.pending(bob), [], "an answered request is not redelivered")

        XCTAssertEqual(try w.pending(alice), w.expectedPending([bob]), "bob's request in return waits for alice")
        let all = try XCTUnwrap(try w.json(alice, w.redeliversPending ? ["approve", "--all"] : ["approve", bob]) as? [[String: Any]])
        XCTAssertEqual(all.map { $0["jid"] as? String }, [bob])
        XCTAssertEqual(all.first?["result"] as? String, "approved")

        let aliceView = try w.contacts(alice)
        XCTAssertEqual(aliceView[bob]?["subscription"] as? String, "both")
        XCTAssertEqual(aliceView[bob]?["ask"] as? Bool, false)
        XCTAssertEqual(aliceView[bob]?["name"] as? String, "Bob")
        XCTAssertEqual(aliceView[bob]?["groups"] as? [String], ["Friends", "Work"])
        XCTAssertEqual(try w.contacts(bob)[alice]?["subscription"] as? String, "both")

        let text = try w.roster(alice, ["list", "--no-presence"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, "\(bob)\tBob\tFriends,Work\tboth\tunknown\t\n")
    }

    func testDenyRefusesTheRequest() throws {
        try TestServer.require().require("rfc6121-roster", "the expected roster and subscription states are RFC 6121's")
        let w = try RosterWorld()
        let alice = try w.account("da"), carol = try w.account("dc")
        XCTAssertEqual(try w.roster(alice, ["add", carol]).status, 0)
        XCTAssertEqual(try w.pending(carol), w.expectedPending([alice]))
        let denied = try XCTUnwrap(try w.json(carol, ["deny", alice]) as? [String: Any])
        XCTAssertEqual(denied["result"] as? String, "denied")
        XCTAssertEqual(try w.pending(carol), [])
        let view = try w.contacts(alice)
        XCTAssertEqual(view[carol]?["subscription"] as? String, "none")
        XCTAssertEqual(view[carol]?["ask"] as? Bool, false, "the denial cancels alice's pending request")
        XCTAssertNil(try w.contacts(carol)[alice], "denying adds nothing to carol's roster")
    }

    func testRemoveAndMissingContactIsNotFound() throws {
        let w = try RosterWorld()
        let alice = try w.account("rm"), bob = try w.account("rmb")
        try w.befriend(alice, bob)
        let r = try w.roster(alice, ["remove", bob])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Removed \(bob).\n")
        XCTAssertEqual(try w.contacts(alice).count, 0)
        XCTAssertEqual(try w.contacts(bob)[alice]?["subscription"] as? String, "none",
                       "removal cancels the subscriptions both ways")
        let again = try w.roster(alice, ["remove", bob])
        XCTAssertEqual(again.status, 4)
        XCTAssertEqual(again.stderr, "xmpp-roster: \(bob) is not in the roster\n")
        XCTAssertEqual(try w.roster(alice, ["rename", bob, "X"]).status, 4)
        XCTAssertEqual(try w.roster(alice, ["group", bob, "X"]).status, 4)
    }

    func testAddTwiceUpdatesNameAndGroupsOnly() throws {
        let w = try RosterWorld()
        let alice = try w.account("at")
        let bobUser = ToolRunner.username("atb")
        XCTAssertEqual(try w.roster(alice, ["add", bobUser, "--name", "B", "--no-subscribe"]).status, 0)
        let bob = w.tools.jid(bobUser)
        let second = try w.roster(alice, ["add", bob, "--name", "Bobby", "--group", "Pals", "--no-subscribe"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout, "\(bob) is already in the roster; updated its name and groups.\n")
        let view = try w.contacts(alice)
        XCTAssertEqual(view.count, 1, "a bare name means that name on the account's domain")
        XCTAssertEqual(view[bob]?["name"] as? String, "Bobby")
        XCTAssertEqual(view[bob]?["groups"] as? [String], ["Pals"])
        XCTAssertEqual(view[bob]?["ask"] as? Bool, false, "--no-subscribe sends no subscription request")
        // Without --no-subscribe, a contact whose presence we do not see is asked (once).
        let asked = try XCTUnwrap(try w.json(alice, ["add", bob]) as? [String: Any])
        XCTAssertEqual(asked["action"] as? String, "unchanged")
        XCTAssertEqual(asked["subscription_requested"] as? Bool, true)
        XCTAssertEqual(asked["ask"] as? Bool, true)
        let same = try XCTUnwrap(try w.json(alice, ["add", bob]) as? [String: Any])
        XCTAssertEqual(same["action"] as? String, "unchanged")
        XCTAssertEqual(same["subscription_requested"] as? Bool, false, "a request of ours is pending already")
    }

    /// A contact who revoked our subscription (or removed us) is asked again by add, which keeps
    /// the name and groups: no remove and add, which would lose them.
    func testAddAfterTheContactRevokedAsksAgainKeepingNameAndGroups() throws {
        try TestServer.require().require("rfc6121-roster", "the expected roster and subscription states are RFC 6121's")
        let w = try RosterWorld()
        let alice = try w.account("rv"), bob = try w.account("rvb")
        XCTAssertEqual(try w.roster(alice, ["add", bob, "--name", "Bob", "--group", "Friends"]).status, 0)
        XCTAssertEqual(try w.roster(bob, ["approve", alice]).status, 0)
        XCTAssertEqual(try w.contacts(alice)[bob]?["subscription"] as? String, "to")
        XCTAssertEqual(try w.roster(bob, ["deny", alice]).status, 0, "bob revokes alice's subscription")
        XCTAssertEqual(try w.contacts(alice)[bob]?["subscription"] as? String, "none")

        let again = try w.roster(alice, ["add", bob])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "\(bob) is already in the roster; asked again to see their presence.\n")
        XCTAssertEqual(try w.pending(bob), w.expectedPending([alice]), "bob has a new request")
        XCTAssertEqual(try w.roster(bob, ["approve", alice]).status, 0)
        let view = try w.contacts(alice)
        XCTAssertEqual(view[bob]?["subscription"] as? String, "to")
        XCTAssertEqual(view[bob]?["name"] as? String, "Bob")
        XCTAssertEqual(view[bob]?["groups"] as? [String], ["Friends"])

        // Bob removes alice altogether after they were subscribed both ways: her item falls to none.
        try w.befriend(bob, alice)
        XCTAssertEqual(try w.roster(bob, ["remove", alice]).status, 0)
        XCTAssertEqual(try w.contacts(alice)[bob]?["subscription"] as? String, "none")
        let renamed = try XCTUnwrap(try w.json(alice, ["add", bob, "--name", "Robert"]) as? [String: Any])
        XCTAssertEqual(renamed["action"] as? String, "updated")
        XCTAssertEqual(renamed["subscription_requested"] as? Bool, true)
        XCTAssertEqual(renamed["name"] as? String, "Robert")
        XCTAssertEqual(renamed["groups"] as? [String], ["Friends"])
        XCTAssertEqual(renamed["ask"] as? Bool, true)
    }

    /// Approving a JID that has not asked would be a pre-approval (Prosody also adds a roster item
    /// for it): refused with exit status 4, and nothing is left behind to let that address in later.
    func testApprovingSomeoneWhoHasNotAskedIsRefusedAndLeavesNothing() throws {
        try TestServer.require().require("rfc6121-roster", "the expected roster and subscription states are RFC 6121's")
        let w = try RosterWorld()
        let alice = try w.account("pr")
        let nobodyUser = ToolRunner.username("prn"), nobody = w.tools.jid(nobodyUser)
        let r = try w.roster(alice, ["approve", nobodyUser, "--add-back"])
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertEqual(r.stderr, "xmpp-roster: \(nobody) has not asked to see your presence; nothing was approved\n")
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(try w.contacts(alice).count, 0, "no junk roster item")

        // An existing contact keeps its item, and no pre-approval stays on it.
        let carolUser = ToolRunner.username("prc"), carol = w.tools.jid(carolUser)
        XCTAssertEqual(try w.roster(alice, ["add", carol, "--name", "Carol", "--no-subscribe"]).status, 0)
        XCTAssertEqual(try w.roster(alice, ["approve", carol]).status, 4)
        XCTAssertEqual(try w.contacts(alice)[carol]?["name"] as? String, "Carol")

        // Whoever registers those names later and asks is not let in.
        for (user, jid) in [(nobodyUser, nobody), (carolUser, carol)] {
            let password = "pw-" + UUID().uuidString
            try w.tools.createAccount(user, password, login: true)
            XCTAssertEqual(try w.roster(jid, ["add", alice]).status, 0, user)
            let view = try w.contacts(alice)
            XCTAssertNotEqual(view[jid]?["subscription"] as? String, "from", "\(jid) was let in without an answer")
            XCTAssertEqual(try w.contacts(jid)[alice]?["subscription"] as? String, "none")
            XCTAssertEqual(try w.roster(alice, ["approve", jid]).status, 0, "the real request is approved")
            XCTAssertEqual(try w.contacts(jid)[alice]?["subscription"] as? String, "to")
        }
    }

    func testAddingYourselfOrABadAddressIsBadInput() throws {
        let w = try RosterWorld()
        let alice = try w.account("se")
        let me = try w.roster(alice, ["add", alice])
        XCTAssertEqual(me.status, 9)
        XCTAssertEqual(me.stderr, "xmpp-roster: \(alice) is your own account, not a contact\n")
        XCTAssertEqual(try w.roster(alice, ["add", String(alice.prefix { $0 != "@" })]).status, 9, "a bare name of yourself too")
        XCTAssertEqual(try w.roster(alice, ["add", "bad name@localhost"]).status, 9)
        XCTAssertEqual(try w.roster(alice, ["add", "bob@localhost/phone"]).status, 9)
        XCTAssertEqual(try w.roster(alice, ["approve"]).status, 2)
        let both = try w.roster(alice, ["approve", "bob", "--all"])
        XCTAssertEqual(both.status, 2)
        XCTAssertEqual(both.stderr, "xmpp-roster: approve needs a JID or --all (not both)\n")
    }

    func testRenameAndGroup() throws {
        try TestServer.require().require("rfc6121-roster", "the expected roster and subscription states are RFC 6121's")
        let w = try RosterWorld()
        let alice = try w.account("rn"), bob = try w.account("rnb")
        XCTAssertEqual(try w.roster(alice, ["add", bob, "--name", "Bob", "--group", "Old", "--no-subscribe"]).status, 0)
        let renamed = try w.roster(alice, ["rename", bob, "Robert"])
        XCTAssertEqual(renamed.stdout, "Renamed \(bob) to Robert.\n")
        XCTAssertEqual(try w.roster(alice, ["group", bob, "A", "B c"]).status, 0)
        var view = try w.contacts(alice, ["--cached"])
        XCTAssertEqual(view[bob]?["name"] as? String, "Robert", "the cache follows the pushes")
        XCTAssertEqual(view[bob]?["groups"] as? [String], ["A", "B c"])
        XCTAssertEqual(view[bob]?["presence"] as? String, "unknown")
        XCTAssertEqual(try w.roster(alice, ["group", bob]).stdout, "\(bob) is in no group now.\n")
        XCTAssertEqual(try w.roster(alice, ["rename", bob, ""]).status, 0)
        view = try w.contacts(alice)
        XCTAssertEqual(view[bob]?["groups"] as? [String], [])
        XCTAssertTrue(view[bob]?["name"] is NSNull)
        let filtered = try XCTUnwrap(try w.json(alice, ["list", "--cached", "--group", "A"]) as? [Any])
        XCTAssertEqual(filtered.count, 0)
    }
}
