import XCTest
import XMLTree
import XMPPStanzas
@testable import XMPPConnection

/// `--trace` hides credentials by what they are: invite tokens wherever they appear, values of
/// `text-private` fields (remembered for the submission, which carries no types), and fields
/// the command names as secret, whatever they are called.
final class TraceRedactionTests: XCTestCase {
    private func parse(_ xml: String) throws -> XMLElement { try parseXMLDocument(xml) }

    private func printed(_ redaction: TraceRedaction, _ xml: String) throws -> String {
        redaction.redact(try parse(xml)).serialized(inheritedNamespace: Namespace.client)
    }

    func testInviteTokensAreHiddenInElementsURIsAndLandingPages() throws {
        let r = TraceRedaction()
        let result = """
            <iq xmlns='jabber:client' type='result' id='1'><command xmlns='http://jabber.org/protocol/commands' node='urn:xmpp:invite#invite' status='completed'>\
            <x xmlns='jabber:x:data' type='result'>\
            <field var='landing-url'><value>https://localhost/invite?Tok3nS3cretValue</value></field>\
            <field var='uri'><value>xmpp:localhost?register;preauth=Tok3nS3cretValue</value></field>\
            <field var='expire'><value>2026-12-10T00:00:00Z</value></field></x></command></iq>
            """
        let out = try printed(r, result)
        XCTAssertFalse(out.contains("Tok3nS3cretValue"), out)
        XCTAssertTrue(out.contains("preauth=[redacted]"), out)
        XCTAssertTrue(out.contains("https://localhost/invite?[redacted]"), "the landing page repeats the token: \(out)")
        XCTAssertTrue(out.contains("2026-12-10T00:00:00Z"), "other fields stay readable")
        let redeem = try printed(TraceRedaction(), "<iq xmlns='jabber:client' type='set' id='2'><preauth xmlns='urn:xmpp:pars:0' token='An0therT0ken'/></iq>")
        XCTAssertFalse(redeem.contains("An0therT0ken"), redeem)
        let attribute = try printed(TraceRedaction(), "<message xmlns='jabber:client'><x xmlns='jabber:x:oob' url='xmpp:a@b?roster;preauth=Th1rdT0ken;ibr=y'/></message>")
        XCTAssertFalse(attribute.contains("Th1rdT0ken"), attribute)
        XCTAssertTrue(attribute.contains(";ibr=y"), attribute)
    }

    func testTextPrivateValuesAreHiddenAndTheSubmissionToo() throws {
        let r = TraceRedaction()
        let form = "<x xmlns='jabber:x:data' type='form'><field var='pin' type='text-private'><value>default-pin-123</value></field>"
            + "<field var='name' type='text-single'><value>alice</value></field></x>"
        let shown = try printed(r, form)
        XCTAssertFalse(shown.contains("default-pin-123"), shown)
        XCTAssertTrue(shown.contains("alice"))
        let submit = try printed(r, "<x xmlns='jabber:x:data' type='submit'><field var='pin'><value>my-new-pin-9876</value></field></x>")
        XCTAssertFalse(submit.contains("my-new-pin-9876"), "a submission carries no type; the field was declared private: \(submit)")
        let result = try printed(TraceRedaction(),
                                 "<x xmlns='jabber:x:data' type='result'><field var='secret' type='text-private'><value>r3sult-s3cret</value></field></x>")
        XCTAssertFalse(result.contains("r3sult-s3cret"), result)
    }

    func testFieldsTheCommandNamesAreHiddenWhateverTheirName() throws {
        let r = TraceRedaction()
        r.addSecretField("new-secret")
        r.addSecretValue("hunter2-passphrase")
        let submit = try printed(r, "<x xmlns='jabber:x:data' type='submit'><field var='new-secret'><value>hunter2-passphrase</value></field>"
                                 + "<field var='accountjid'><value>bob@localhost</value></field></x>")
        XCTAssertFalse(submit.contains("hunter2-passphrase"), submit)
        XCTAssertTrue(submit.contains("bob@localhost"))
        let echoed = try printed(r, "<iq xmlns='jabber:client' type='error'><error type='modify'><text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>bad value hunter2-passphrase</text></error></iq>")
        XCTAssertFalse(echoed.contains("hunter2-passphrase"), "a server that echoes it: \(echoed)")
    }
}
