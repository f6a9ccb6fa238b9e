import XCTest
import XMLTree
@testable import XMPPStanzas

/// Every vcard-temp element through a .vcf file and back (issue 14: `get --format vcf` →
/// `import` lost GEO, LABEL, KEY, LOGO, SOUND, AGENT and CLASS silently), repeated properties,
/// and what is left out being named.
final class VCardVCFStructureTests: XCTestCase {
    /// A card as another client (slixmpp) publishes it, with every XEP-0054 element this type does not model,
    /// indented and with Base64 broken into lines as servers send it back.
    static let everyElement = """
        <vCard xmlns='vcard-temp'>
          <FN>Jane Doe</FN>
          <N><FAMILY>Doe</FAMILY><GIVEN>Jane</GIVEN></N>
          <TITLE>Engineer</TITLE>
          <LABEL><HOME/><POSTAL/><LINE>1 Main Street</LINE><LINE>Springfield</LINE></LABEL>
          <MAILER>slixmpp</MAILER>
          <TZ>+01:00</TZ>
          <GEO>
            <LAT>37.386013</LAT>
            <LON>-122.082932</LON>
          </GEO>
          <LOGO><TYPE>image/png</TYPE><BINVAL>iVBORw0K
        GgoAAAA=</BINVAL></LOGO>
          <AGENT><vCard xmlns='vcard-temp'><FN>Susan Thomas</FN><TEL><VOICE/><NUMBER>+1-919-555-1234</NUMBER></TEL></vCard></AGENT>
          <CATEGORIES><KEYWORD>friend</KEYWORD><KEYWORD>work, mostly</KEYWORD></CATEGORIES>
          <PRODID>-//slixmpp//EN</PRODID>
          <REV>2026-11-30T10:00:00Z</REV>
          <SORT-STRING>Doe</SORT-STRING>
          <SOUND><PHONETIC>jayn doh</PHONETIC></SOUND>
          <UID>urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6</UID>
          <CLASS><PRIVATE/></CLASS>
          <KEY><TYPE>PGP</TYPE><CRED>mQINBF...;key, "text"</CRED></KEY>
          <DESC>also a description</DESC>
          <NOTE>a note</NOTE>
          <TITLE>Second title</TITLE>
        </vCard>
        """

    static func card(_ xml: String) throws -> VCard { try VCard(element: try parseXMLDocument(xml)) }

    func testEveryVcardTempElementSurvivesTheFileOrIsNamed() throws {
        let card = try Self.card(Self.everyElement)
        let text = VCFWriter.write(card)
        let back = try VCFReader.read(text)[0].card
        XCTAssertEqual(VCFWriter.losses(card), [
            VCardLoss(field: "PRODID", value: "-//slixmpp//EN"), VCardLoss(field: "REV", value: "2026-11-30T10:00:00Z"),
        ], text)
        XCTAssertEqual(card.losses(comparedTo: back).map(\.field), ["PRODID", "REV"])
        // XEP-0054's structure, not flat text.
        let geo = try XCTUnwrap(back.extras.first { $0.name == "GEO" })
        XCTAssertEqual(geo.child("LAT")?.text, "37.386013")
        XCTAssertEqual(geo.child("LON")?.text, "-122.082932")
        XCTAssertEqual(back.extras.first { $0.name == "LOGO" }?.child("BINVAL")?.text, "iVBORw0KGgoAAAA=")
        XCTAssertEqual(back.extras.first { $0.name == "CLASS" }?.elements.map(\.name), ["PRIVATE"])
        XCTAssertEqual(back.extras.first { $0.name == "TITLE" }?.text, "Second title")
        XCTAssertEqual(back.title, "Engineer")
        let agent = try XCTUnwrap(back.extras.first { $0.name == "AGENT" }?.child("vCard"))
        XCTAssertEqual(try VCard(element: agent).phones, [VCard.Phone(number: "+1-919-555-1234", types: ["voice"])])
        // The file says it in vCard 3.0 words.
        for line in ["GEO:37.386013;-122.082932", "LABEL;TYPE=home,postal:1 Main Street\\nSpringfield", "CLASS:PRIVATE",
                     "SOUND;VALUE=text:jayn doh", "TITLE:Second title", "KEY;TYPE=\"PGP\":mQINBF...\\;key\\, \"text\""] {
            XCTAssertTrue(text.replacingOccurrences(of: "\r\n ", with: "").contains(line + "\r\n"), line + " in\n" + text)
        }
        // Written again, the file is the same: the round trip is stable.
        XCTAssertEqual(VCFWriter.write(back), VCFWriter.write(try VCFReader.read(VCFWriter.write(back))[0].card))
    }

    func testWhatHasNoVCardFormIsNamedWithItsValue() throws {
        let card = try Self.card("""
            <vCard xmlns='vcard-temp'><FN>x</FN><X-FOO xmlns='urn:example'>bar</X-FOO><GEO><LAT>1</LAT></GEO>\
            <TZ kind='iana'>Europe/Paris</TZ><N><FAMILY>A</FAMILY><NICK>odd</NICK></N></vCard>
            """)
        XCTAssertEqual(VCFWriter.losses(card).map(\.description),
                       ["NICK: odd", "X-FOO: bar", "GEO: LAT=1", "TZ: Europe/Paris"])
    }

    func testStructuredPropertiesFromFilesOthersWrite() throws {
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            FN:x
            GEO:geo:46.772673,-71.282945
            LOGO:http://www.example.com/pub/logos/abccorp.jpg
            KEY:data:application/pgp-keys;base64,MIICajCCAdOgAwIBAgICBE
             UwDQYJKoZIhvcNAQEEBQAwdzELMAkGA1UEBhMCVVM=
            SOUND;VALUE=uri:https://example.com/jane.ogg
            AGENT;VALUE=uri:CID:JQPublic@example.com
            CLASS:confidential
            END:VCARD
            """
        let entry = try VCFReader.read(text)[0]
        XCTAssertEqual(entry.warnings, [])
        let xml = entry.card.extras.map { $0.serialized(inheritedNamespace: Namespace.vcardTemp) }
        XCTAssertEqual(xml, [
            "<GEO><LAT>46.772673</LAT><LON>-71.282945</LON></GEO>",
            "<LOGO><EXTVAL>http://www.example.com/pub/logos/abccorp.jpg</EXTVAL></LOGO>",
            "<KEY><TYPE>application/pgp-keys</TYPE><CRED>MIICajCCAdOgAwIBAgICBEUwDQYJKoZIhvcNAQEEBQAwdzELMAkGA1UEBhMCVVM=</CRED></KEY>",
            "<SOUND><EXTVAL>https://example.com/jane.ogg</EXTVAL></SOUND>",
            "<AGENT><EXTVAL>CID:JQPublic@example.com</EXTVAL></AGENT>",
            "<CLASS><CONFIDENTIAL/></CLASS>",
        ])
    }

    /// RFC 2426 §3.5.4's AGENT: a vCard escaped inside the value.
    func testAgentWithAnEmbeddedVCard() throws {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:x\r\nAGENT:BEGIN:VCARD\\nFN:Susan Thomas\\nTEL:+1-919-555-\r\n 1234\\nEMAIL\\;INTERNET:sthomas@host.com\\nEND:VCARD\\n\r\nEND:VCARD\r\n"
        let card = try VCFReader.read(text)[0].card
        let agent = try VCard(element: try XCTUnwrap(card.extras.first?.child("vCard")))
        XCTAssertEqual(agent.fullName, "Susan Thomas")
        XCTAssertEqual(agent.emails, [VCard.Email(address: "sthomas@host.com", types: ["internet"])])
        XCTAssertEqual(try VCFReader.read(VCFWriter.write(card)).map(\.card), [card])
    }

    func testAGEOThatIsNoPositionIsDroppedWithItsValue() throws {
        let entry = try VCFReader.read("BEGIN:VCARD\nVERSION:3.0\nGEO:somewhere nice\nEND:VCARD\n")[0]
        XCTAssertEqual(entry.card.extras, [])
        XCTAssertEqual(entry.warnings, ["line 3: left out GEO 'somewhere nice' (not a latitude and a longitude)"])
        XCTAssertEqual(entry.dropped, [VCardLoss(field: "GEO", value: "somewhere nice")])
    }

    func testRepeatedPropertiesAreKeptWhereVcardTempHoldsThem() throws {
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            FN;ALTID=1;LANGUAGE=ja:佐藤太郎
            FN;ALTID=1;LANGUAGE=en:Taro Sato
            FN:T. Sato
            TITLE:Research Scientist
            TITLE:Lecturer
            N:Sato;Taro;;;
            N:Satou;Tarou;;;
            ORG:Example Corp
            ORG:University;Physics
            URL:https://a.example
            URL:https://b.example
            NOTE:one
            NOTE:two
            END:VCARD
            """
        let entry = try VCFReader.read(text)[0]
        let card = entry.card
        XCTAssertEqual(card.fullName, "佐藤太郎")
        XCTAssertEqual(card.title, "Research Scientist")
        XCTAssertEqual(card.name.family, "Sato")
        XCTAssertEqual(card.organization.name, "Example Corp")
        XCTAssertEqual(card.url, "https://a.example")
        XCTAssertEqual(card.note, "one")
        XCTAssertEqual(card.extras.map { VCard.summary(of: $0) },
                       ["T. Sato", "Lecturer", "FAMILY=Satou; GIVEN=Tarou", "ORGNAME=University; ORGUNIT=Physics", "https://b.example", "two"])
        // A 4.0 card: its xCard, for the vCard4 node, keeps the other form.
        XCTAssertEqual(entry.warnings, ["line 4: vcard-temp leaves out FN 'Taro Sato' (ALTID 1 is another form of the FN on line 3, "
                                        + "which is kept); the vCard4 node keeps it"])
        XCTAssertEqual(entry.dropped, [])
        XCTAssertEqual(entry.keptInVCard4Only, [VCardLoss(field: "FN", value: "Taro Sato")])
        XCTAssertEqual(entry.xcard?.children("fn").count, 3)
        // The XML form (as published) reads back to the same card, and so does the file written from it.
        XCTAssertEqual(try VCard(xml: card.xml), card)
        XCTAssertEqual(try VCFReader.read(VCFWriter.write(card)).map(\.card), [card])
    }

    func testProdIDAndRevAreDroppedWithANote() throws {
        let entry = try VCFReader.read("BEGIN:VCARD\nVERSION:3.0\nPRODID:-//Apple Inc.//iOS 17.0//EN\nREV:2024-01-01T00:00:00Z\nFN:x\nEND:VCARD\n")[0]
        XCTAssertEqual(entry.dropped.map(\.description), ["PRODID: -//Apple Inc.//iOS 17.0//EN", "REV: 2024-01-01T00:00:00Z"])
        XCTAssertEqual(entry.warnings, [
            "line 3: left out PRODID '-//Apple Inc.//iOS 17.0//EN' (it names the program that wrote the file, not the person)",
            "line 4: left out REV '2024-01-01T00:00:00Z' (it names when the file was written, not the person)",
        ])
    }

    func testReadBackComparesWithoutTheIndentationServersAdd() throws {
        let sent = try Self.card("<vCard xmlns='vcard-temp'><GEO><LAT>1</LAT><LON>2</LON></GEO></vCard>")
        let kept = try Self.card("<vCard xmlns='vcard-temp'>\n <GEO>\n  <LON>2</LON>\n  <LAT>1</LAT>\n </GEO>\n</vCard>")
        XCTAssertEqual(sent.losses(comparedTo: kept), [])
        XCTAssertEqual(sent.losses(comparedTo: VCard()), [VCardLoss(field: "GEO", value: "LAT=1; LON=2")])
        // The order of LINEs is the address; the order of different parts is not.
        let label = try Self.card("<vCard xmlns='vcard-temp'><LABEL><HOME/><LINE>a</LINE><LINE>b</LINE></LABEL></vCard>")
        let swapped = try Self.card("<vCard xmlns='vcard-temp'><LABEL><LINE>b</LINE><LINE>a</LINE><HOME/></LABEL></vCard>")
        let reordered = try Self.card("<vCard xmlns='vcard-temp'><LABEL><LINE>a</LINE><LINE>b</LINE><HOME/></LABEL></vCard>")
        XCTAssertEqual(label.losses(comparedTo: swapped).map(\.field), ["LABEL"])
        XCTAssertEqual(label.losses(comparedTo: reordered), [])
    }
}
