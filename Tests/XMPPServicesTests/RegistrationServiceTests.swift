import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// RegistrationService against XEP-0077's examples.
final class RegistrationServiceTests: XCTestCase {
    /// XEP-0077 example 2: the plain form; then example 3's submission and example 4's result.
    func testRegisterAnswersThePlainForm() throws {
        let channel = try FakeChannel(replies: [
            """
            <iq xmlns='jabber:client' type='result' id='{id}'>
              <query xmlns='jabber:iq:register'>
                <instructions>Choose a username and password for use with this service. Please also provide your email address.</instructions>
                <username/><password/><email/>
              </query>
            </iq>
            """,
            "<iq xmlns='jabber:client' type='result' id='{id}'/>",
        ])
        try RegistrationService.register(on: channel, username: "bill", password: "Calliope", extra: ["email": "bard@shakespeare.lit"])
        let query = try XCTUnwrap(channel.requests.last?.child("query", namespace: Namespace.register))
        XCTAssertEqual(query.child("username")?.text, "bill")
        XCTAssertEqual(query.child("password")?.text, "Calliope")
        XCTAssertEqual(query.child("email")?.text, "bard@shakespeare.lit")
    }

    /// XEP-0077 example 6: a conflict means the account exists, passed on as the server's error.
    func testAConflictIsTheServersAnswer() throws {
        let channel = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' type='result' id='{id}'><query xmlns='jabber:iq:register'><username/><password/></query></iq>",
            """
            <iq xmlns='jabber:client' type='error' id='{id}'>
              <query xmlns='jabber:iq:register'><username>bill</username><password>m1cro$oft</password></query>
              <error code='409' type='cancel'><conflict xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error>
            </iq>
            """,
        ])
        XCTAssertThrowsError(try RegistrationService.register(on: channel, username: "bill", password: "m1cro$oft")) { error in
            guard case RegistrationError.connection(.stanzaError(let e)) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.condition, .conflict)
        }
    }

    /// A required field without a value is refused before anything is submitted.
    func testAMissingRequiredFieldIsRefusedBeforeSubmitting() throws {
        let channel = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' type='result' id='{id}'><query xmlns='jabber:iq:register'><username/><password/><email/></query></iq>",
        ])
        XCTAssertThrowsError(try RegistrationService.register(on: channel, username: "bill", password: "x")) { error in
            guard case RegistrationError.missingField("email") = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(channel.requests.count, 1, "only the form was asked for")
    }

    /// XEP-0077 §3.1: a server without in-band registration answers service-unavailable.
    func testServiceUnavailableMeansNotSupported() throws {
        let channel = try FakeChannel(domain: "shakespeare.lit", replies: [
            "<iq xmlns='jabber:client' type='error' id='{id}'><error type='cancel'><service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>",
        ])
        XCTAssertThrowsError(try RegistrationService.form(on: channel)) { error in
            guard case RegistrationError.notSupported(domain: "shakespeare.lit") = error else { return XCTFail("\(error)") }
        }
    }

    /// XEP-0077 example 8 (data form with a CAPTCHA, XEP-0158): a script cannot answer it.
    func testACaptchaFormIsACaptchaError() throws {
        let channel = try FakeChannel(replies: ["""
            <iq xmlns='jabber:client' type='result' id='{id}'>
              <query xmlns='jabber:iq:register'>
                <instructions>Use the enclosed form to register.</instructions>
                <x xmlns='jabber:x:data' type='form'>
                  <field type='hidden' var='FORM_TYPE'><value>urn:xmpp:captcha</value></field>
                  <field type='text-single' label='Username' var='username'><required/></field>
                  <field type='text-private' label='Password' var='password'><required/></field>
                  <field label='Enter the text you see' var='ocr'><required/></field>
                </x>
              </query>
            </iq>
            """])
        XCTAssertThrowsError(try RegistrationService.register(on: channel, username: "bill", password: "x")) { error in
            guard case RegistrationError.captchaRequired = error else { return XCTFail("\(error)") }
        }
    }

    /// The reading a polled stream's reply gets (batch pipelining): the same outcomes as `form(on:)`.
    func testAReplyIsReadAsTheBlockingPathReadsIt() throws {
        func reply(_ xml: String) throws -> Iq { try Iq(element: try parseXMLDocument(xml)) }
        let error = "<iq xmlns='jabber:client' type='error' id='r1'><error type='cancel'><%@ xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"
        for condition in ["service-unavailable", "feature-not-implemented"] {
            XCTAssertThrowsError(try RegistrationService.form(from: try reply(error.replacingOccurrences(of: "%@", with: condition)),
                                                              domain: "shakespeare.lit")) { e in
                guard case RegistrationError.notSupported(domain: "shakespeare.lit") = e else { return XCTFail("\(e)") }
            }
        }
        XCTAssertThrowsError(try RegistrationService.form(from: try reply(error.replacingOccurrences(of: "%@", with: "not-allowed")),
                                                          domain: "d")) { e in
            // Registration closed to this client, whichever account is asked for.
            guard case RegistrationError.refused(.closed, domain: "d", answer: let s) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(s.condition, .notAllowed)
        }
        XCTAssertThrowsError(try RegistrationService.form(from: try reply("<iq xmlns='jabber:client' type='result' id='r1'/>"), domain: "d")) { e in
            guard case RegistrationError.invalidForm = e else { return XCTFail("\(e)") }
        }
        let form = try RegistrationService.form(from: try reply(
            "<iq xmlns='jabber:client' type='result' id='r1'><query xmlns='jabber:iq:register'><username/><password/><email/></query></iq>"),
            domain: "d")
        XCTAssertEqual(form.fields.map(\.name), ["username", "password", "email"])
        XCTAssertNoThrow(try RegistrationService.checkAnswerable(form))
        XCTAssertEqual(RegistrationService.formRequest(id: "f1").element.child("query", namespace: Namespace.register)?.elements.count, 0)
    }

    /// A form that only points to a web page cannot be answered; one with fields and a URL can.
    func testAWebOnlyFormIsRefused() throws {
        XCTAssertThrowsError(try RegistrationService.checkAnswerable(RegistrationForm(redirectURL: "https://example.org/join"))) { e in
            guard case RegistrationError.redirected(url: "https://example.org/join") = e else { return XCTFail("\(e)") }
        }
        XCTAssertNoThrow(try RegistrationService.checkAnswerable(
            RegistrationForm(fields: [(name: "username", value: ""), (name: "password", value: "")], redirectURL: "https://example.org/join")))
    }

    /// XEP-0077 §3.2: a server may close the stream instead of answering a cancellation.
    func testCancelTreatsAClosedStreamAsDone() throws {
        final class ClosingChannel: StanzaChannel {
            let domain = "example.org"
            let timeout: Duration = .seconds(1)
            let features = StreamFeatures(element: XMLElement("features"))
            let boundJID: JID? = nil
            var sent = 0
            func makeID() -> String { "c" }
            func send(_ elements: [XMLElement]) throws(ConnectionError) { sent += elements.count }
            func awaitReply(id: String, timeout: Duration?) throws(ConnectionError) -> Iq { throw .streamClosed }
            func nextStanza(deadline: ContinuousClock.Instant) throws(ConnectionError) -> XMLElement { throw .streamClosed }
        }
        let channel = ClosingChannel()
        try RegistrationService.cancel(on: channel)
        XCTAssertEqual(channel.sent, 1)
    }
}
