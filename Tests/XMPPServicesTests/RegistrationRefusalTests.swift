import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// What the servers answer when registration is closed, by invitation or throttled (the answers
/// measured on Prosody 0.12.3 and ejabberd 23.01, DESIGN-NOTES.md), read as a refusal of
/// registration itself, and what stays about the one account.
final class RegistrationRefusalTests: XCTestCase {
    func testTheMeasuredAnswersAreRefusalsOfRegistration() {
        XCTAssertEqual(RegistrationRefusal(StanzaError(type: "auth", condition: .forbidden, text: "Access denied by service policy")), .closed)
        XCTAssertEqual(RegistrationRefusal(StanzaError(type: "modify", condition: .notAcceptable,
                                                       text: "Registration on this server is through invitation only")), .invitationOnly)
        XCTAssertEqual(RegistrationRefusal(StanzaError(type: "wait", condition: .policyViolation,
                                                       text: "Too many registrations from this IP address recently")), .throttled)
        XCTAssertEqual(RegistrationRefusal(StanzaError(type: "wait", condition: .resourceConstraint,
                                                       text: "Users are not allowed to register accounts so quickly")), .throttled)
        XCTAssertEqual(RegistrationRefusal(StanzaError(type: "cancel", condition: .notAllowed)), .closed)
    }

    func testAnswersAboutTheOneAccountAreNotRefusalsOfRegistration() {
        XCTAssertNil(RegistrationRefusal(StanzaError(type: "modify", condition: .notAcceptable, text: "The requested username is invalid.")))
        XCTAssertNil(RegistrationRefusal(StanzaError(type: "modify", condition: .notAcceptable, text: "The password is too weak")))
        XCTAssertNil(RegistrationRefusal(StanzaError(type: "modify", condition: .jidMalformed)))
        XCTAssertNil(RegistrationRefusal(StanzaError(type: "cancel", condition: .conflict)))
        XCTAssertFalse(RegistrationRefusal.closed.isTemporary)
        XCTAssertTrue(RegistrationRefusal.throttled.isTemporary)
    }

    /// ejabberd 23.01 with `register: deny`: the form comes, the submission is forbidden.
    func testAForbiddenSubmissionIsClosedRegistration() throws {
        let channel = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' type='result' id='{id}'><query xmlns='jabber:iq:register'><username/><password/></query></iq>",
            """
            <iq xmlns='jabber:client' type='error' id='{id}'><query xmlns='jabber:iq:register'/>
              <error type='auth'><forbidden xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>
              <text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>Access denied by service policy</text></error>
            </iq>
            """,
        ])
        XCTAssertThrowsError(try RegistrationService.register(on: channel, username: "bill", password: "pw")) { error in
            guard case RegistrationError.refused(.closed, domain: let domain, answer: let answer) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(answer.condition, .forbidden)
            XCTAssertEqual((error as? RegistrationError)?.description,
                           "\(domain) does not let this client create accounts (server: forbidden: Access denied by service policy)")
        }
    }

    /// A throttled form request (any server may throttle before the form) is a refusal too.
    func testAThrottledFormRequestIsThrottling() throws {
        let channel = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' type='error' id='{id}'><error type='wait'><resource-constraint xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>",
        ])
        XCTAssertThrowsError(try RegistrationService.form(on: channel)) { error in
            guard case RegistrationError.refused(.throttled, _, _) = error else { return XCTFail("\(error)") }
        }
    }
}
