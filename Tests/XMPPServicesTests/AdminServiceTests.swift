import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// AdminService reads "exists" and "no such account" as Prosody 0.12 and ejabberd 23.01 say them
/// (replies copied from both servers' traces).
final class AdminServiceTests: XCTestCase {
    private let ns = "http://jabber.org/protocol/commands"
    private let account = try! JID("dave@localhost")

    private func form(_ node: String, _ fields: String) -> String {
        "<iq xmlns='jabber:client' type='result' id='{id}' from='localhost'><command xmlns='\(ns)' node='\(node)' sessionid='s1' status='executing'>"
            + "<actions execute='complete'><complete/></actions><x xmlns='jabber:x:data' type='form'>"
            + "<field var='FORM_TYPE' type='hidden'><value>http://jabber.org/protocol/admin</value></field>\(fields)</x></command></iq>"
    }

    private func completed(_ node: String, _ inside: String = "") -> String {
        "<iq xmlns='jabber:client' type='result' id='{id}' from='localhost'><command xmlns='\(ns)' node='\(node)' sessionid='s1' status='completed'>\(inside)</command></iq>"
    }

    private let addFields = "<field var='accountjid' type='jid-single'><required/></field><field var='password' type='text-private'/><field var='password-verify' type='text-private'/>"

    func testProsodyAddUserExistsIsAnErrorNote() throws {
        let node = ServiceAdministration.Command.addUser.node
        let channel = try FakeChannel(replies: [form(node, addFields), completed(node, "<note type='error'>Account already exists</note>")])
        XCTAssertEqual(try AdminService.perform(.addUser, account: account, password: "p", on: channel), .exists)
        XCTAssertEqual(channel.requests.first?[attribute: "to"], "localhost", "addressed to the account's domain")
    }

    func testEjabberdAddUserExistsIsAConflict() throws {
        let node = ServiceAdministration.Command.addUser.node
        let channel = try FakeChannel(replies: [form(node, addFields),
            "<iq xmlns='jabber:client' type='error' id='{id}'><error type='cancel'><conflict xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"])
        XCTAssertEqual(try AdminService.perform(.addUser, account: account, password: "p", on: channel), .exists)
    }

    func testAddUserDone() throws {
        let node = ServiceAdministration.Command.addUser.node
        let channel = try FakeChannel(replies: [form(node, addFields), completed(node, "<note type='info'>Account successfully created</note>")])
        XCTAssertEqual(try AdminService.perform(.addUser, account: account, password: "p", on: channel), .done)
    }

    func testProsodyDeleteOfAMissingAccountSaysSoInItsInfoNote() throws {
        let node = ServiceAdministration.Command.deleteUser.node
        let fields = "<field var='accountjids' type='jid-multi'><required/></field>"
        let missing = try FakeChannel(replies: [form(node, fields),
            completed(node, "<note type='info'>The following accounts could not be deleted:\ndave@localhost</note>")])
        XCTAssertEqual(try AdminService.perform(.deleteUser, account: account, on: missing), .noSuchAccount)
        let deleted = try FakeChannel(replies: [form(node, fields),
            completed(node, "<note type='info'>The following accounts were successfully deleted:\ndave@localhost\n</note>")])
        XCTAssertEqual(try AdminService.perform(.deleteUser, account: account, on: deleted), .done)
    }

    func testEjabberdItemNotFoundToTheFormIsNoSuchAccount() throws {
        let node = ServiceAdministration.Command.changeUserPassword.node
        let fields = "<field var='accountjid' type='jid-single'><required/></field><field var='password' type='text-private'><required/></field>"
        let channel = try FakeChannel(replies: [form(node, fields),
            "<iq xmlns='jabber:client' type='error' id='{id}'><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/><text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>No hook has processed this command</text></error></iq>"])
        XCTAssertEqual(try AdminService.perform(.changeUserPassword, account: account, password: "p", on: channel), .noSuchAccount)
    }

    func testItemNotFoundToTheFirstRequestIsACommandNotOffered() throws {
        let channel = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' type='error' id='{id}'><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"])
        XCTAssertThrowsError(try AdminService.perform(.disableUser, account: account, on: channel)) {
            guard case AdHocError.notOffered = $0 else { return XCTFail("\($0)") }
        }
    }

    func testProsodyChangePasswordOfAMissingAccount() throws {
        let node = ServiceAdministration.Command.changeUserPassword.node
        let fields = "<field var='accountjid' type='jid-single'><required/></field><field var='password' type='text-private'><required/></field>"
        let channel = try FakeChannel(replies: [form(node, fields), completed(node, "<note type='error'>User does not exist</note>")])
        XCTAssertEqual(try AdminService.perform(.changeUserPassword, account: account, password: "p", on: channel), .noSuchAccount)
    }

    func testProsody13DisableAndReenableOfAMissingAccountSayItInTheirInfoNotes() throws {
        // Prosody 13's mod_admin_adhoc completes both commands, listing what it could not do.
        for (command, verb) in [(ServiceAdministration.Command.disableUser, "disabled"), (.reenableUser, "enabled")] {
            let node = command.node
            let fields = "<field var='accountjids' type='jid-multi'><required/></field>"
            let missing = try FakeChannel(replies: [form(node, fields),
                completed(node, "<note type='info'>The following accounts could not be \(verb):\ndave@localhost</note>")])
            XCTAssertEqual(try AdminService.perform(command, account: account, on: missing), .noSuchAccount, verb)
            let done = try FakeChannel(replies: [form(node, fields),
                completed(node, "<note type='info'>The following accounts were successfully \(verb):\ndave@localhost</note>")])
            XCTAssertEqual(try AdminService.perform(command, account: account, on: done), .done, verb)
        }
    }
}
