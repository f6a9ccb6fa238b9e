import XCTest
import XMLTree
import XMPPStanzas

/// XEP-0077 forms and submissions, with XML from the XEP's examples and from Prosody.
final class RegistrationFormTests: XCTestCase {
    func testPlainFieldsExample() throws {
        // XEP-0077 Example 2.
        let form = try RegistrationForm(element: parseXMLDocument("""
            <query xmlns='jabber:iq:register'>
              <instructions>Choose a username and password for use with this service. Please also provide your email address.</instructions>
              <username/><password/><email/>
            </query>
            """))
        XCTAssertEqual(form.fields.map(\.name), ["username", "password", "email"])
        XCTAssertFalse(form.registered)
        XCTAssertNil(form.form)
        XCTAssertEqual(form.requiredFieldNames, ["username", "password", "email"])
        XCTAssertThrowsError(try RegistrationRequest.submission(answering: form, values: ["username": "bill", "password": "x"])) {
            XCTAssertEqual($0 as? RegistrationInputError, .missingField("email"))
        }
        let submission = try RegistrationRequest.submission(answering: form, values: ["username": "bill", "password": "Calliope", "email": "bard@shakespeare.lit"])
        XCTAssertEqual(submission.serialized(),
                       "<query xmlns='jabber:iq:register'><username>bill</username><password>Calliope</password><email>bard@shakespeare.lit</email></query>")
    }

    func testProsodyDataFormIsAnsweredWithFormTypeEchoed() throws {
        let form = try RegistrationForm(element: parseXMLDocument("""
            <query xmlns='jabber:iq:register'><instructions>Choose a username and password.</instructions><username/><password/>
            <x xmlns='jabber:x:data' type='form'><title>Creating a new account</title>
            <field type='hidden' var='FORM_TYPE'><value>jabber:iq:register</value></field>
            <field type='text-single' var='username' label='Username'><required/></field>
            <field type='text-private' var='password' label='Password'><required/></field>
            <field type='text-single' var='email' label='Email'/></x></query>
            """))
        XCTAssertEqual(form.requiredFieldNames, ["username", "password"])
        XCTAssertFalse(form.isCaptcha)
        let submission = try RegistrationRequest.submission(answering: form, values: ["username": "a", "password": "p"])
        let x = try XCTUnwrap(submission.child("x", namespace: Namespace.dataForms))
        XCTAssertEqual(x[attribute: "type"], "submit")
        let submitted = try DataForm(element: x)
        XCTAssertEqual(submitted.formType, "jabber:iq:register")
        XCTAssertEqual(submitted.field("username")?.values, ["a"])
        XCTAssertNil(submitted.field("email"), "optional fields without a value are left out")
    }

    func testCaptchaFormIsRecognised() throws {
        let form = try RegistrationForm(element: parseXMLDocument("""
            <query xmlns='jabber:iq:register'><x xmlns='jabber:x:data' type='form'>
            <field type='hidden' var='FORM_TYPE'><value>urn:xmpp:captcha</value></field>
            <field var='ocr' label='Enter the text you see'><media xmlns='urn:xmpp:media-element'/><required/></field>
            </x></query>
            """))
        XCTAssertTrue(form.isCaptcha)
    }

    func testRegisteredFlagAndRedirect() throws {
        let form = try RegistrationForm(element: parseXMLDocument("""
            <query xmlns='jabber:iq:register'><registered/><username>juliet</username>
            <x xmlns='jabber:x:oob'><url>https://example.org/register</url></x></query>
            """))
        XCTAssertTrue(form.registered)
        XCTAssertEqual(form.fields.first?.value, "juliet")
        XCTAssertEqual(form.redirectURL, "https://example.org/register")
    }

    /// A data form supersedes the plain fields: only its fields count as asked for.
    func testAsksLooksAtTheDataFormFirst() {
        let plain = RegistrationForm(fields: [(name: "username", value: ""), (name: "email", value: "")])
        XCTAssertTrue(plain.asks("email"))
        XCTAssertFalse(plain.asks("nick"))
        var data = plain
        data.form = DataForm(type: "form", fields: [DataForm.Field(name: "username", required: true)])
        XCTAssertFalse(data.asks("email"), "the plain email field is superseded by the data form")
        XCTAssertTrue(data.asks("username"))
    }

    func testWrongElementIsRefused() {
        XCTAssertThrowsError(try RegistrationForm(element: XMLElement("query", namespace: "jabber:iq:roster")))
    }

    func testRemoveAndPasswordChangePayloads() {
        XCTAssertEqual(RegistrationRequest.remove.serialized(), "<query xmlns='jabber:iq:register'><remove/></query>")
        XCTAssertEqual(RegistrationRequest.changePassword(username: "bill", newPassword: "n&w").serialized(),
                       "<query xmlns='jabber:iq:register'><username>bill</username><password>n&amp;w</password></query>")
    }
}
