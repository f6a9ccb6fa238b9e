import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// AdHocService against XEP-0050's and XEP-0133's examples.
final class AdHocServiceTests: XCTestCase {
    private let ns = "http://jabber.org/protocol/commands"

    /// XEP-0050 Examples 1–2: the list through disco#items on the commands node.
    func testListsTheCommands() throws {
        let channel = try FakeChannel(replies: ["""
            <iq xmlns='jabber:client' type='result' id='{id}' from='responder@domain'>
              <query xmlns='http://jabber.org/protocol/disco#items' node='http://jabber.org/protocol/commands'>
                <item jid='responder@domain' node='list' name='List Service Configurations'/>
                <item jid='responder@domain' node='config' name='Configure Service'/>
              </query>
            </iq>
            """])
        let items = try AdHocService.commands(on: channel, at: try JID("responder@domain"))
        XCTAssertEqual(items.map(\.node), ["list", "config"])
        let query = try XCTUnwrap(channel.requests.first?.child("query", namespace: Namespace.discoItems))
        XCTAssertEqual(query[attribute: "node"], Namespace.commands)
        XCTAssertEqual(channel.requests.first?[attribute: "to"], "responder@domain")
        XCTAssertEqual(channel.requests.first?[attribute: "type"], "get")
    }

    /// XEP-0050 Examples 6–11: two stages (next, then complete) and the completed note.
    func testRunsAMultiStageCommandToTheEnd() throws {
        let channel = try FakeChannel(replies: [
            """
            <iq xmlns='jabber:client' type='result' id='{id}'><command xmlns='\(ns)' sessionid='config:1' node='config' status='executing'>
              <actions execute='next'><next/></actions>
              <x xmlns='jabber:x:data' type='form'><field var='service' label='Service' type='list-single'>
                <option><value>httpd</value></option><option><value>jabberd</value></option></field></x>
            </command></iq>
            """,
            """
            <iq xmlns='jabber:client' type='result' id='{id}'><command xmlns='\(ns)' sessionid='config:1' node='config' status='executing'>
              <actions execute='complete'><prev/><complete/></actions>
              <x xmlns='jabber:x:data' type='form'>
                <field var='runlevel' label='Run Modes' type='list-multi'><value>3</value><value>5</value>
                  <option label='Single-User'><value>1</value></option><option label='Full Multi-User'><value>3</value></option>
                  <option label='X-Window'><value>5</value></option></field>
                <field var='state' label='Run State' type='list-single'><value>off</value>
                  <option label='Active'><value>off</value></option><option label='Inactive'><value>on</value></option></field>
              </x>
            </command></iq>
            """,
            """
            <iq xmlns='jabber:client' type='result' id='{id}'><command xmlns='\(ns)' sessionid='config:1' node='config' status='completed'>
              <note type='info'>Service 'httpd' has been configured.</note></command></iq>
            """,
        ])
        let run = try AdHocService.run(on: channel, node: "config", values: ["service": ["httpd"], "state": ["on"], "colour": ["red"]])
        XCTAssertEqual(run.answer.status, .completed)
        XCTAssertEqual(run.answer.notes.first?.text, "Service 'httpd' has been configured.")
        XCTAssertEqual(run.unusedValues, ["colour"])
        let commands = channel.requests.compactMap { $0.child("command", namespace: ns) }
        XCTAssertEqual(commands.map { $0[attribute: "action"] }, ["execute", "next", "complete"])
        XCTAssertEqual(commands.map { $0[attribute: "sessionid"] }, [nil, "config:1", "config:1"])
        let second = try DataForm(element: try XCTUnwrap(commands[2].child("x", namespace: Namespace.dataForms)))
        XCTAssertEqual(second.field("runlevel")?.values, ["3", "5"], "preset values go back as they were")
        XCTAssertEqual(second.field("state")?.values, ["on"])
    }

    /// A required field without a value cancels the session (XEP-0050 Example 15) before anything is submitted.
    func testAMissingValueCancelsTheSession() throws {
        let channel = try FakeChannel(replies: [
            """
            <iq xmlns='jabber:client' type='result' id='{id}'><command xmlns='\(ns)' sessionid='add-user:1'
              node='http://jabber.org/protocol/admin#add-user' status='executing'><x xmlns='jabber:x:data' type='form'>
              <field type='hidden' var='FORM_TYPE'><value>http://jabber.org/protocol/admin</value></field>
              <field type='jid-single' var='accountjid'><required/></field></x></command></iq>
            """,
            "<iq xmlns='jabber:client' type='result' id='{id}'><command xmlns='\(ns)' sessionid='add-user:1' node='http://jabber.org/protocol/admin#add-user' status='canceled'/></iq>",
        ])
        XCTAssertThrowsError(try AdHocService.run(on: channel, node: ServiceAdministration.Command.addUser.node, values: [:])) {
            guard case AdHocError.badAnswer(_, .missingField(name: "accountjid", _)) = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(channel.requests.last?.child("command", namespace: ns)?[attribute: "action"], "cancel")
    }

    /// XEP-0133 Examples 2–4: add-user answered, the empty result is success.
    func testAddUserWithTheEmptyResultOfXEP0133() throws {
        let channel = try FakeChannel(replies: [
            """
            <iq xmlns='jabber:client' from='shakespeare.lit' id='{id}' type='result'>
              <command xmlns='\(ns)' node='http://jabber.org/protocol/admin#add-user' sessionid='add-user:20040408T0337Z' status='executing'>
                <x xmlns='jabber:x:data' type='form'><title>Adding a User</title>
                  <field type='hidden' var='FORM_TYPE'><value>http://jabber.org/protocol/admin</value></field>
                  <field label='The Jabber ID for the account to be added' type='jid-single' var='accountjid'><required/></field>
                  <field label='The password for this account' type='text-private' var='password'/>
                  <field label='Retype password' type='text-private' var='password-verify'/>
                  <field label='Email address' type='text-single' var='email'/>
                </x></command></iq>
            """,
            "<iq xmlns='jabber:client' from='shakespeare.lit' id='{id}' type='result'/>",
        ])
        let values = ServiceAdministration.values(for: .addUser, account: try JID("juliet@shakespeare.lit"), password: "pw")
        let run = try AdHocService.run(on: channel, node: ServiceAdministration.Command.addUser.node, values: values)
        XCTAssertEqual(run.answer.status, .completed)
        XCTAssertEqual(run.unusedValues, ["accountjids"], "only the name the form has is used")
        let submitted = try XCTUnwrap(channel.requests.last?.child("command", namespace: ns)?.child("x", namespace: Namespace.dataForms))
        let form = try DataForm(element: submitted)
        XCTAssertEqual(form.formType, Namespace.admin)
        XCTAssertEqual(form.field("password-verify")?.values, ["pw"])
    }

    /// Prosody's way of saying no: completed, with an error note only.
    func testACompletedCommandWithOnlyAnErrorNoteFails() throws {
        let channel = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' type='result' id='{id}'><command xmlns='\(ns)' node='n' sessionid='s' status='completed'><note type='error'>Account already exists</note></command></iq>",
        ])
        XCTAssertThrowsError(try AdHocService.run(on: channel, node: "n", values: [:])) {
            guard case AdHocError.failed(node: "n", message: "Account already exists") = $0 else { return XCTFail("\($0)") }
        }
    }

    /// XEP-0050 §4.6: forbidden means the account may not run it; item-not-found that there is no such command.
    func testRefusalsAreTold() throws {
        let forbidden = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' type='error' id='{id}'><error type='auth'><forbidden xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>",
        ])
        XCTAssertThrowsError(try AdHocService.run(on: forbidden, node: "n", values: [:])) {
            guard case AdHocError.forbidden(node: "n", _) = $0 else { return XCTFail("\($0)") }
        }
        let missing = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' type='error' id='{id}'><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>",
        ])
        XCTAssertThrowsError(try AdHocService.run(on: missing, node: "n", values: [:])) {
            guard case AdHocError.notOffered(node: "n", _) = $0 else { return XCTFail("\($0)") }
        }
    }

    /// A form that keeps coming back is cancelled after `maxStages`, not answered forever.
    func testAnEndlessCommandIsCancelled() throws {
        let stage = "<iq xmlns='jabber:client' type='result' id='{id}'><command xmlns='\(ns)' node='loop' sessionid='s' status='executing'/></iq>"
        let channel = try FakeChannel(replies: Array(repeating: stage, count: AdHocService.maxStages + 2))
        XCTAssertThrowsError(try AdHocService.run(on: channel, node: "loop", values: [:])) {
            guard case AdHocError.tooManyStages = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(channel.requests.last?.child("command", namespace: ns)?[attribute: "action"], "cancel")
    }
}
