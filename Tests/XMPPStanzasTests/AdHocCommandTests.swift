import XCTest
import XMLTree
import XMPPStanzas

/// XEP-0050 commands, XEP-0030 items and XEP-0004 answers, with the XEPs' own example XML.
final class AdHocCommandTests: XCTestCase {
    func testCommandListExample() throws {
        // XEP-0050 Example 2.
        let items = try DiscoItems(element: parseXMLDocument("""
            <query xmlns='http://jabber.org/protocol/disco#items' node='http://jabber.org/protocol/commands'>
              <item jid='responder@domain' node='list' name='List Service Configurations'/>
              <item jid='responder@domain' node='config' name='Configure Service'/>
              <item jid='responder@domain' node='reset' name='Reset Service Configuration'/>
            </query>
            """))
        XCTAssertEqual(items.node, Namespace.commands)
        XCTAssertEqual(items.items.map(\.node), ["list", "config", "reset"])
        XCTAssertEqual(items.items.first?.name, "List Service Configurations")
        XCTAssertEqual(items.items.first?.jid.description, "responder@domain")
        XCTAssertEqual(try DiscoItems(element: items.element), items, "round trip")
    }

    func testAnItemWithoutAValidJIDIsAnError() {
        assertRefused(DiscoItems.init(element:),
                      "<query xmlns='http://jabber.org/protocol/disco#items'><item node='x'/></query>",
                      "<query xmlns='http://jabber.org/protocol/disco#items'><item jid='a@@b'/></query>")
    }

    func testMultiStageExampleActionsAndForm() throws {
        // XEP-0050 Example 9: the second stage of 'config'.
        let command = try AdHocCommand(element: parseXMLDocument("""
            <command xmlns='http://jabber.org/protocol/commands' sessionid='config:20020923T213616Z-700' node='config' status='executing'>
              <actions execute='complete'><prev/><complete/></actions>
              <x xmlns='jabber:x:data' type='form'>
                <title>Configure Service</title>
                <instructions>Please select the run modes and state for 'httpd'.</instructions>
                <field var='runlevel' label='Run Modes' type='list-multi'>
                  <value>3</value><value>5</value>
                  <option label='Single-User'><value>1</value></option>
                  <option label='Non-Networked Multi-User'><value>2</value></option>
                  <option label='Full Multi-User'><value>3</value></option>
                  <option label='X-Window'><value>5</value></option>
                </field>
                <field var='state' label='Run State' type='list-single'>
                  <value>off</value>
                  <option label='Active'><value>off</value></option>
                  <option label='Inactive'><value>on</value></option>
                </field>
              </x>
            </command>
            """))
        XCTAssertEqual(command.status, .executing)
        XCTAssertEqual(command.sessionID, "config:20020923T213616Z-700")
        XCTAssertEqual(command.allowedActions, [.prev, .complete])
        XCTAssertEqual(command.defaultAction, .complete)
        XCTAssertEqual(command.forwardAction, .complete)
        let form = try XCTUnwrap(command.form)
        XCTAssertEqual(form.field("runlevel")?.options.map(\.value), ["1", "2", "3", "5"])
        // A list answers by value or by label; a value that is not a choice is refused.
        let answer = try form.submission(["runlevel": ["1", "X-Window"], "state": ["Inactive"]])
        XCTAssertEqual(answer.field("runlevel")?.values, ["1", "5"])
        XCTAssertEqual(answer.field("state")?.values, ["on"])
        XCTAssertThrowsError(try form.submission(["state": ["sleeping"]])) {
            guard case DataFormAnswerError.invalidValue(field: "state", value: "sleeping", _) = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try form.submission(["state": ["on", "off"]]), "list-single takes one value")
        XCTAssertEqual(try AdHocCommand(element: command.element), command, "round trip")
    }

    func testFirstStageWithNextOnly() throws {
        // XEP-0050 Example 7: only 'next' is allowed, so that is how the session moves on.
        let command = try AdHocCommand(element: parseXMLDocument("""
            <command xmlns='http://jabber.org/protocol/commands' sessionid='config:20020923T213616Z-700' node='config' status='executing'>
              <actions execute='next'><next/></actions>
              <x xmlns='jabber:x:data' type='form'><title>Configure Service</title>
                <field var='service' label='Service' type='list-single'>
                  <option><value>httpd</value></option><option><value>jabberd</value></option>
                </field></x>
            </command>
            """))
        XCTAssertEqual(command.forwardAction, .next)
        let next = AdHocCommand.proceed(command, action: command.forwardAction, form: try command.form?.submission(["service": ["httpd"]]))
        XCTAssertEqual(next.element[attribute: "sessionid"], "config:20020923T213616Z-700")
        XCTAssertEqual(next.element[attribute: "action"], "next")
        XCTAssertEqual(next.element.child("x", namespace: Namespace.dataForms)?[attribute: "type"], "submit")
    }

    func testCompletedWithNotesAndResultTable() throws {
        // XEP-0050 Example 5 (shortened) and Example 11.
        let list = try AdHocCommand(element: parseXMLDocument("""
            <command xmlns='http://jabber.org/protocol/commands' sessionid='list:20020923T213616Z-700' node='list' status='completed'>
              <x xmlns='jabber:x:data' type='result'><title>Available Services</title>
                <reported><field var='service' label='Service'/><field var='runlevel-3' label='Full Multi-User mode'/></reported>
                <item><field var='service'><value>httpd</value></field><field var='runlevel-3'><value>on</value></field></item>
                <item><field var='service'><value>postgresql</value></field><field var='runlevel-3'><value>on</value></field></item>
              </x>
            </command>
            """))
        XCTAssertEqual(list.status, .completed)
        XCTAssertEqual(list.form?.reported.compactMap(\.name), ["service", "runlevel-3"])
        XCTAssertEqual(list.form?.items.map { $0.first?.values }, [["httpd"], ["postgresql"]])
        let done = try AdHocCommand(element: parseXMLDocument("""
            <command xmlns='http://jabber.org/protocol/commands' sessionid='config:20020923T213616Z-700' node='config' status='completed'>
              <note type='info'>Service 'httpd' has been configured.</note>
            </command>
            """))
        XCTAssertEqual(done.notes, [.init(.info, "Service 'httpd' has been configured.")])
        XCTAssertNil(done.errorText)
    }

    func testAnUnknownStatusOrActionIsAnError() {
        assertRefused(AdHocCommand.init(element:),
                      "<command xmlns='http://jabber.org/protocol/commands' node='x' status='running'/>",
                      "<command xmlns='http://jabber.org/protocol/commands' node='x'><actions execute='jump'/></command>",
                      "<command xmlns='http://jabber.org/protocol/commands'/>")
    }

    func testAddUserFormIsAnsweredForOneAccount() throws {
        // XEP-0133 Example 2: the add-user form.
        let command = try AdHocCommand(element: parseXMLDocument("""
            <command xmlns='http://jabber.org/protocol/commands' node='http://jabber.org/protocol/admin#add-user' sessionid='add-user:20040408T0337Z' status='executing'>
              <x xmlns='jabber:x:data' type='form'>
                <title>Adding a User</title><instructions>Fill out this form to add a user.</instructions>
                <field type='hidden' var='FORM_TYPE'><value>http://jabber.org/protocol/admin</value></field>
                <field label='The Jabber ID for the account to be added' type='jid-single' var='accountjid'><required/></field>
                <field label='The password for this account' type='text-private' var='password'/>
                <field label='Retype password' type='text-private' var='password-verify'/>
                <field label='Email address' type='text-single' var='email'/>
                <field label='Given name' type='text-single' var='given_name'/>
                <field label='Family name' type='text-single' var='surname'/>
              </x>
            </command>
            """))
        let form = try XCTUnwrap(command.form)
        let account = try JID("juliet@shakespeare.lit")
        let values = ServiceAdministration.values(for: .addUser, account: account, password: "s3cr3t")
        let answer = try ServiceAdministration.answer(form, values: values)
        XCTAssertEqual(answer.type, "submit")
        XCTAssertEqual(answer.formType, Namespace.admin)
        XCTAssertEqual(answer.field("accountjid")?.values, ["juliet@shakespeare.lit"])
        XCTAssertEqual(answer.field("password")?.values, ["s3cr3t"])
        XCTAssertEqual(answer.field("password-verify")?.values, ["s3cr3t"])
        XCTAssertNil(answer.field("accountjids"), "a name the form does not have is not sent")
        XCTAssertNil(answer.field("email"), "optional fields without a value are left out")
        XCTAssertThrowsError(try form.submission([:])) {
            XCTAssertEqual($0 as? DataFormAnswerError, .missingField(name: "accountjid", label: "The Jabber ID for the account to be added"))
        }
        XCTAssertThrowsError(try form.submission(["accountjid": ["not a jid@"]]))
        XCTAssertThrowsError(try form.submission(["acountjid": ["x@y"]])) {
            guard case DataFormAnswerError.unknownField(name: "acountjid", let known) = $0 else { return XCTFail("\($0)") }
            XCTAssertTrue(known.contains("accountjid"))
        }
    }

    func testBooleanAndSingleLineFieldsAreChecked() throws {
        let form = DataForm(type: "form", fields: [
            .init(name: "notify", type: "boolean"), .init(name: "subject", type: "text-single"),
            .init(name: "body", type: "text-multi"), .init(name: "banner", type: "fixed", values: ["Read me"]),
        ])
        XCTAssertEqual(try form.submission(["notify": ["true"]]).field("notify")?.values, ["true"])
        XCTAssertThrowsError(try form.submission(["notify": ["yes"]]))
        XCTAssertThrowsError(try form.submission(["subject": ["two\nlines"]]))
        XCTAssertEqual(try form.submission(["body": ["two\nlines"]]).field("body")?.values, ["two", "lines"])
        XCTAssertThrowsError(try form.submission(["banner": ["x"]]), "a fixed field cannot be answered")
        XCTAssertNil(try form.submission([:]).field("banner"), "fixed fields are not sent back")
    }
}

/// XEP-0401 / XEP-0379 invite URIs.
final class InviteURITests: XCTestCase {
    func testAccountInvite() throws {
        // As Prosody's mod_invites writes them (XEP-0401 §4).
        let invite = try InviteURI("xmpp:example.com?register;preauth=p82vi6NMNg45f5RyieCiJuov")
        XCTAssertEqual(invite.jid.description, "example.com")
        XCTAssertEqual(invite.action, "register")
        XCTAssertEqual(invite.token, "p82vi6NMNg45f5RyieCiJuov")
        XCTAssertTrue(invite.allowsRegistration)
        XCTAssertEqual(invite.preauthPayload.serialized(), "<preauth xmlns='urn:xmpp:pars:0' token='p82vi6NMNg45f5RyieCiJuov'/>")
    }

    func testContactInviteAllowsRegistrationOnlyWithIbr() throws {
        // XEP-0401 Example 1 shape: a contact invite; ibr=y lets the invitee register.
        let withIBR = try InviteURI("xmpp:juliet@example.com?roster;preauth=1tMFqYDdKhfe2pwp;ibr=y")
        XCTAssertEqual(withIBR.jid.description, "juliet@example.com")
        XCTAssertTrue(withIBR.allowsRegistration)
        XCTAssertFalse(try InviteURI("xmpp:juliet@example.com?roster;preauth=1tMFqYDdKhfe2pwp").allowsRegistration)
    }

    func testWhatIsNotAnInviteIsRefusedWithAReason() {
        for text in ["https://example.com/invite", "xmpp:example.com", "xmpp:example.com?message;body=hi",
                     "xmpp:example.com?register", "xmpp:exa mple.com?register;preauth=x"] {
            XCTAssertThrowsError(try InviteURI(text), text)
        }
    }
}
