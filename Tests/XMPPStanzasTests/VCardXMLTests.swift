import XCTest
import XMLTree
@testable import XMPPStanzas

/// XEP-0054 vCards: parsing the spec's examples, round trips, unknown-field preservation.
final class VCardXMLTests: XCTestCase {
    /// XEP-0054 §3.1, Example 2 (one's own vCard), as published.
    static let stpeter = """
        <vCard xmlns='vcard-temp'>
          <FN>Peter Saint-Andre</FN>
          <N>
            <FAMILY>Saint-Andre</FAMILY>
            <GIVEN>Peter</GIVEN>
            <MIDDLE/>
          </N>
          <NICKNAME>stpeter</NICKNAME>
          <URL>http://www.xmpp.org/xsf/people/stpeter.shtml</URL>
          <BDAY>1966-08-06</BDAY>
          <ORG>
            <ORGNAME>XMPP Standards Foundation</ORGNAME>
            <ORGUNIT/>
          </ORG>
          <TITLE>Executive Director</TITLE>
          <ROLE>Patron Saint</ROLE>
          <TEL><WORK/><VOICE/><NUMBER>303-308-3282</NUMBER></TEL>
          <TEL><WORK/><FAX/><NUMBER/></TEL>
          <TEL><WORK/><MSG/><NUMBER/></TEL>
          <ADR>
            <WORK/>
            <EXTADD>Suite 600</EXTADD>
            <STREET>1899 Wynkoop Street</STREET>
            <LOCALITY>Denver</LOCALITY>
            <REGION>CO</REGION>
            <PCODE>80202</PCODE>
            <CTRY>USA</CTRY>
          </ADR>
          <TEL><HOME/><VOICE/><NUMBER>303-555-1212</NUMBER></TEL>
          <TEL><HOME/><FAX/><NUMBER/></TEL>
          <TEL><HOME/><MSG/><NUMBER/></TEL>
          <ADR>
            <HOME/>
            <EXTADD/>
            <STREET/>
            <LOCALITY>Denver</LOCALITY>
            <REGION>CO</REGION>
            <PCODE>80209</PCODE>
            <CTRY>USA</CTRY>
          </ADR>
          <EMAIL><INTERNET/><PREF/><USERID>stpeter@jabber.org</USERID></EMAIL>
          <JABBERID>stpeter@jabber.org</JABBERID>
          <DESC>
            More information about me is located on my
            personal website: http://www.saint-andre.com/
          </DESC>
        </vCard>
        """

    /// XEP-0054 §3.2, Example 4 (another user's vCard).
    static let jer = """
        <vCard xmlns='vcard-temp'>
          <FN>JeremieMiller</FN>
          <N>
            <GIVEN>Jeremie</GIVEN>
            <FAMILY>Miller</FAMILY>
            <MIDDLE/>
          </N>
          <NICKNAME>jer</NICKNAME>
          <EMAIL><INTERNET/><PREF/><USERID>jeremie@jabber.org</USERID></EMAIL>
          <JABBERID>jer@jabber.org</JABBERID>
        </vCard>
        """

    static func card(_ xml: String) throws -> VCard { try VCard(element: try parseXMLDocument(xml)) }

    func testParsesTheSpecExample() throws {
        let c = try Self.card(Self.stpeter)
        XCTAssertEqual(c.fullName, "Peter Saint-Andre")
        XCTAssertEqual(c.name, VCard.Name(family: "Saint-Andre", given: "Peter"))
        XCTAssertEqual(c.nickname, "stpeter")
        XCTAssertEqual(c.url, "http://www.xmpp.org/xsf/people/stpeter.shtml")
        XCTAssertEqual(c.birthday, "1966-08-06")
        XCTAssertEqual(c.organization, VCard.Organization(name: "XMPP Standards Foundation"))
        XCTAssertEqual(c.title, "Executive Director")
        XCTAssertEqual(c.role, "Patron Saint")
        XCTAssertEqual(c.phones, [VCard.Phone(number: "303-308-3282", types: ["work", "voice"]),
                                  VCard.Phone(number: "303-555-1212", types: ["home", "voice"])])
        XCTAssertEqual(c.addresses.count, 2)
        XCTAssertEqual(c.addresses[0], VCard.Address(extended: "Suite 600", street: "1899 Wynkoop Street", locality: "Denver",
                                                     region: "CO", code: "80202", country: "USA", types: ["work"]))
        XCTAssertEqual(c.addresses[1], VCard.Address(locality: "Denver", region: "CO", code: "80209", country: "USA", types: ["home"]))
        XCTAssertEqual(c.emails, [VCard.Email(address: "stpeter@jabber.org", types: ["internet", "pref"])])
        XCTAssertEqual(c.jabberID, "stpeter@jabber.org")
        XCTAssertEqual(c.note?.contains("personal website: http://www.saint-andre.com/"), true)
        // The four TELs without a NUMBER are not phones, but they are not dropped either.
        XCTAssertEqual(c.extras.map(\.name), ["TEL", "TEL", "TEL", "TEL"])
        XCTAssertNil(c.photo)
    }

    func testSpecExamplesRoundTrip() throws {
        for xml in [Self.stpeter, Self.jer] {
            let c = try Self.card(xml)
            let again = try VCard(element: try parseXMLDocument(c.element.serialized()))
            XCTAssertEqual(again, c)
            XCTAssertEqual(try VCard(xml: c.xml), c)
        }
        let jer = try Self.card(Self.jer)
        XCTAssertEqual(jer.name.given, "Jeremie")
        XCTAssertEqual(jer.name.family, "Miller")
        XCTAssertEqual(jer.emails.first?.types, ["internet", "pref"])
    }

    func testUnknownFieldsSurviveAMerge() throws {
        let xml = """
            <vCard xmlns='vcard-temp'><NICKNAME>a</NICKNAME><NICKNAME>b</NICKNAME><TZ>+01:00</TZ>\
            <GEO><LAT>52.5</LAT><LON>13.4</LON></GEO><EMAIL><WORK/><USERID>x@y</USERID><X-LABEL>office</X-LABEL></EMAIL>\
            <N><GIVEN>A</GIVEN><X-PHONETIC>ay</X-PHONETIC></N><ext xmlns='urn:example'>1</ext>\
            <PHOTO><TYPE>image/png</TYPE><BINVAL>iVBO\nRw==</BINVAL></PHOTO></vCard>
            """
        var c = try Self.card(xml)
        XCTAssertEqual(c.nickname, "a")
        XCTAssertEqual(c.extras.map(\.name), ["NICKNAME", "TZ", "GEO", "ext"])
        XCTAssertEqual(c.emails.first?.extras.map(\.name), ["X-LABEL"])
        XCTAssertEqual(c.name.extras.map(\.name), ["X-PHONETIC"])
        XCTAssertEqual(c.photo?.compactBase64, "iVBORw==")
        c.title = "new"
        let sent = try VCard(element: try parseXMLDocument(c.element.serialized()))
        XCTAssertEqual(sent.extras, c.extras)
        XCTAssertEqual(sent.emails, c.emails)
        XCTAssertEqual(sent.name, c.name)
        XCTAssertEqual(sent.photo, c.photo)
        XCTAssertEqual(sent.title, "new")
    }

    func testEmptyElementsAreAbsentAndEmptyCardIsEmpty() throws {
        // What Prosody answers for an account without a vCard, and after an empty set.
        XCTAssertTrue(try Self.card("<vCard xmlns='vcard-temp'/>").isEmpty)
        let prosody = try Self.card("<vCard xmlns='vcard-temp'><FN/><N><FAMILY/><GIVEN/><MIDDLE/><PREFIX/><SUFFIX/></N></vCard>")
        XCTAssertTrue(prosody.isEmpty)
        XCTAssertEqual(prosody.element.serialized(), "<vCard xmlns='vcard-temp'/>")
    }

    func testNoteReadsNOTEBeforeDESCAndKeepsUnicode() throws {
        let c = try Self.card("<vCard xmlns='vcard-temp'><DESC>about</DESC><NOTE>line 1\nzeile 2 ü 😀</NOTE></vCard>")
        XCTAssertEqual(c.note, "line 1\nzeile 2 ü 😀")
        XCTAssertEqual(c.extras.map(\.text), ["about"])
        XCTAssertEqual(try Self.card("<vCard xmlns='vcard-temp'><DESC>only</DESC></vCard>").note, "only")
    }

    func testRejectsOtherElements() {
        XCTAssertThrowsError(try Self.card("<query xmlns='vcard-temp'/>"))
        XCTAssertThrowsError(try Self.card("<vCard xmlns='urn:ietf:params:xml:ns:vcard-4.0'/>"))
        XCTAssertThrowsError(try VCard(xml: "<vCard xmlns='vcard-temp'>"))
    }

    func testWritesXEPOrderAndFlags() throws {
        var c = VCard()
        c.fullName = "A & B"
        c.emails = [VCard.Email(address: "a@b", types: ["work"])]
        c.organization = VCard.Organization(name: "Org", units: ["U1", "U2"])
        XCTAssertEqual(c.element.serialized(),
                       "<vCard xmlns='vcard-temp'><FN>A &amp; B</FN><EMAIL><WORK/><USERID>a@b</USERID></EMAIL>"
                        + "<ORG><ORGNAME>Org</ORGNAME><ORGUNIT>U1</ORGUNIT><ORGUNIT>U2</ORGUNIT></ORG></vCard>")
    }

    func testLossesNameWhatTheServerDropped() throws {
        var sent = VCard()
        sent.nickname = "n"
        sent.organization = VCard.Organization(name: "Org", units: ["Research"])
        sent.emails = [VCard.Email(address: "a@x", types: ["work", "pref"])]
        sent.phones = [VCard.Phone(number: "+1", types: ["cell"]), VCard.Phone(number: "+2", types: ["work"])]
        sent.extras = [XMLElement("TZ", namespace: Namespace.vcardTemp, children: [.text("+01:00")])]
        // What vcard_legacy gives back.
        var kept = VCard()
        kept.nickname = "n"
        kept.organization = VCard.Organization(name: "Org")
        kept.emails = [VCard.Email(address: "a@x", types: ["internet", "work"])]
        kept.phones = [VCard.Phone(number: "+1"), VCard.Phone(number: "+2", types: ["work"])]
        XCTAssertEqual(sent.losses(comparedTo: kept), [
            VCardLoss(field: "org_unit", value: "Research"),
            VCardLoss(field: "email.type", value: "pref on a@x"),
            VCardLoss(field: "phone.type", value: "cell on +1"),
            VCardLoss(field: "TZ", value: "+01:00"),
        ])
        XCTAssertEqual(kept.losses(comparedTo: kept), [])
        XCTAssertEqual(sent.losses(comparedTo: sent), [])
        XCTAssertEqual(sent.losses(comparedTo: VCard()).map(\.field), ["nickname", "org", "org_unit", "email", "phone", "phone", "TZ"])
    }

    func testFieldClearAndSet() {
        var c = VCard()
        for f in VCardField.scalars { f.set("v-\(f.rawValue)", in: &c) }
        for f in VCardField.scalars { XCTAssertEqual(f.text(in: c), "v-\(f.rawValue)") }
        for f in VCardField.allCases { f.clear(in: &c) }
        XCTAssertTrue(c.isEmpty)
    }
}
