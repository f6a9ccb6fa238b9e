import XCTest
import XMLTree
@testable import XMPPStanzas

/// XEP-0292 vCard4: the spec's example, round trips, and properties kept that are not mapped.
final class VCard4Tests: XCTestCase {
    /// XEP-0292 §3.1 Example 1 (abridged to the properties it shows).
    static let stpeter = """
        <vcard xmlns='urn:ietf:params:xml:ns:vcard-4.0'>
          <fn><text>Peter Saint-Andre</text></fn>
          <n><surname>Saint-Andre</surname><given>Peter</given><additional></additional></n>
          <nickname><text>stpeter</text></nickname>
          <nickname><text>psa</text></nickname>
          <photo><uri>http://stpeter.im/images/stpeter_oscon.jpg</uri></photo>
          <bday><date>1966-08-06</date></bday>
          <adr>
            <parameters><type><text>work</text></type><pref><integer>1</integer></pref></parameters>
            <ext>Suite 600</ext><street>1899 Wynkoop Street</street><locality>Denver</locality>
            <region>CO</region><code>80202</code><country>USA</country>
          </adr>
          <tel>
            <parameters><type><text>work</text><text>voice</text></type><pref><integer>1</integer></pref></parameters>
            <uri>tel:+1-303-308-3282</uri>
          </tel>
          <geo><uri>geo:39.59,-105.01</uri></geo>
          <impp><uri>xmpp:stpeter@jabber.org</uri></impp>
          <email><parameters><type><text>work</text></type></parameters><text>psaintandre@cisco.com</text></email>
          <url><parameters><type><text>home</text></type></parameters><uri>https://stpeter.im/</uri></url>
          <note><text>More information about me is located on my personal website: https://stpeter.im/</text></note>
          <gender><sex>M</sex></gender>
        </vcard>
        """

    func testTheSpecExampleMapsKnownFieldsAndKeepsTheRest() throws {
        let v = try VCard4(element: parseXMLDocument(Self.stpeter))
        XCTAssertEqual(v.fields.fullName, "Peter Saint-Andre")
        XCTAssertEqual(v.fields.name, VCard.Name(family: "Saint-Andre", given: "Peter"))
        XCTAssertEqual(v.fields.nickname, "stpeter", "the first NICKNAME is the field")
        XCTAssertEqual(v.fields.birthday, "1966-08-06")
        XCTAssertEqual(v.fields.addresses.first?.street, "1899 Wynkoop Street")
        XCTAssertEqual(v.fields.addresses.first?.types, ["work", "pref"])
        XCTAssertEqual(v.fields.phones, [VCard.Phone(number: "+1-303-308-3282", types: ["work", "voice", "pref"])])
        XCTAssertEqual(v.fields.jabberID, "stpeter@jabber.org")
        XCTAssertEqual(v.fields.emails, [VCard.Email(address: "psaintandre@cisco.com", types: ["work"])])
        XCTAssertNil(v.fields.url, "a URL with parameters is kept whole, not mapped")
        XCTAssertEqual(v.extras.map(\.name), ["nickname", "photo", "geo", "url", "gender"])
        XCTAssertNil(v.fields.photo)
    }

    func testWritingThenReadingGivesTheSameValue() throws {
        let v = try VCard4(element: parseXMLDocument(Self.stpeter))
        let again = try VCard4(element: parseXMLDocument(v.element.serialized()))
        XCTAssertEqual(again, v)
    }

    func testReplacingFieldsKeepsUnmappedPropertiesAndDropsThePhoto() throws {
        let v = try VCard4(element: parseXMLDocument(Self.stpeter))
        var card = VCard()
        card.nickname = "new"
        card.photo = VCard.Photo(type: "image/png", base64: "AAAA")
        card.emails = [VCard.Email(address: "a@example.org", types: ["internet", "home"])]
        let merged = v.replacingFields(with: card)
        XCTAssertEqual(merged.extras, v.extras)
        XCTAssertEqual(merged.fields.nickname, "new")
        XCTAssertNil(merged.fields.fullName)
        XCTAssertNil(merged.fields.photo)
        XCTAssertEqual(merged.fields.emails, [VCard.Email(address: "a@example.org", types: ["home"])],
                       "vCard 4.0 has no INTERNET type")
    }

    /// Prosody's vcard_legacy writes `<fn><text/></fn>` and an empty `<n/>` for absent fields.
    func testBlankPropertiesAreAbsentNotExtras() throws {
        let v = try VCard4(element: parseXMLDocument("""
            <vcard xmlns='urn:ietf:params:xml:ns:vcard-4.0'><fn><text/></fn>
            <n><surname/><given/><additional/><prefix/><suffix/></n><nickname><text>Ally</text></nickname>
            <email><text>a@example.org</text><parameters><type/></parameters></email></vcard>
            """))
        XCTAssertEqual(v.extras, [])
        XCTAssertEqual(v.fields.nickname, "Ally")
        XCTAssertEqual(v.fields.emails, [VCard.Email(address: "a@example.org")])
    }

    /// nbxmpp (Gajim's library) writes an empty `<parameters/>` into every property, as captured
    /// from its VCard4 module's publish; the fields are still mapped, not kept as extras.
    func testNbxmppEmptyParametersAreNoParameters() throws {
        let v = try VCard4(element: parseXMLDocument("""
            <vcard xmlns="urn:ietf:params:xml:ns:vcard-4.0"><fn><parameters /><text>Gajim User</text></fn>            <n><parameters /><surname>User</surname><given>Gajim</given></n><org><parameters /><text>Gajim</text></org>            <email><parameters /><text>g@example.org</text></email><gender><parameters /><sex>F</sex></gender>            <note><parameters /><text/></note></vcard>
            """))
        XCTAssertEqual(v.fields.fullName, "Gajim User")
        XCTAssertEqual(v.fields.name.family, "User")
        XCTAssertEqual(v.fields.organization.name, "Gajim")
        XCTAssertEqual(v.fields.emails, [VCard.Email(address: "g@example.org")])
        XCTAssertEqual(v.extras.map(\.name), ["gender"], "a blank NOTE is absent; GENDER is kept as it came")
        XCTAssertNotNil(v.extras.first?.child("parameters"))
    }

    func testBirthdayIsWrittenInRFC6350BasicFormAndReadBackAsXEP0054() throws {
        var card = VCard()
        card.birthday = "1990-02-03"
        let v = VCard4(fields: card)
        XCTAssertTrue(v.element.serialized().contains("<date>19900203</date>"), v.element.serialized())
        XCTAssertEqual(try VCard4(element: parseXMLDocument(v.element.serialized())).fields.birthday, "1990-02-03")
    }

    func testForeignElementIsRefusedAsAVCard4() {
        XCTAssertThrowsError(try VCard4(element: parseXMLDocument("<vCard xmlns='vcard-temp'/>")))
    }

    func testNicknamePayload() throws {
        XCTAssertEqual(try UserNickname(element: parseXMLDocument("<nick xmlns='http://jabber.org/protocol/nick'>Ishmael</nick>")).nickname,
                       "Ishmael")
        XCTAssertNil(try UserNickname(element: parseXMLDocument("<nick xmlns='http://jabber.org/protocol/nick'/>")).nickname)
        XCTAssertEqual(try UserNickname(element: parseXMLDocument(UserNickname("Ally").element.serialized())).nickname, "Ally")
        XCTAssertThrowsError(try UserNickname(element: parseXMLDocument("<nick xmlns='other'>x</nick>")))
    }
}
