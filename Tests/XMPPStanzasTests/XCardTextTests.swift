import XCTest
import XMLTree
@testable import XMPPStanzas

/// vCard 4.0 text (RFC 6350) ↔ xCard (RFC 6351), with the specs' example card of Simon Perreault.
final class XCardTextTests: XCTestCase {
    /// RFC 6351 §4's xCard of the author (its ADR label and TZ differ from RFC 6350 §8's text).
    static let rfc6351 = """
        <vcards xmlns="urn:ietf:params:xml:ns:vcard-4.0">
          <vcard>
            <fn><text>Simon Perreault</text></fn>
            <n>
              <surname>Perreault</surname>
              <given>Simon</given>
              <additional/>
              <prefix/>
              <suffix>ing. jr</suffix>
              <suffix>M.Sc.</suffix>
            </n>
            <bday><date>--0203</date></bday>
            <anniversary>
              <date-time>20090808T1430-0500</date-time>
            </anniversary>
            <gender><sex>M</sex></gender>
            <lang>
              <parameters><pref><integer>1</integer></pref></parameters>
              <language-tag>fr</language-tag>
            </lang>
            <lang>
              <parameters><pref><integer>2</integer></pref></parameters>
              <language-tag>en</language-tag>
            </lang>
            <org>
              <parameters><type><text>work</text></type></parameters>
              <text>Viagenie</text>
            </org>
            <adr>
              <parameters>
                <type><text>work</text></type>
                <label><text>Simon Perreault
        2875 boul. Laurier, suite D2-630
        Quebec, QC, Canada
        G1V 2M2</text></label>
              </parameters>
              <pobox/>
              <ext/>
              <street>2875 boul. Laurier, suite D2-630</street>
              <locality>Quebec</locality>
              <region>QC</region>
              <code>G1V 2M2</code>
              <country>Canada</country>
            </adr>
            <tel>
              <parameters>
                <type><text>work</text><text>voice</text></type>
                <pref><integer>1</integer></pref>
              </parameters>
              <uri>tel:+1-418-656-9254;ext=102</uri>
            </tel>
            <tel>
              <parameters>
                <type><text>work</text><text>cell</text><text>voice</text><text>video</text><text>text</text></type>
              </parameters>
              <uri>tel:+1-418-262-6501</uri>
            </tel>
            <email>
              <parameters><type><text>work</text></type></parameters>
              <text>simon.perreault@viagenie.ca</text>
            </email>
            <geo>
              <parameters><type><text>work</text></type></parameters>
              <uri>geo:46.766336,-71.28955</uri>
            </geo>
            <key>
              <parameters><type><text>work</text></type></parameters>
              <uri>http://www.viagenie.ca/simon.perreault/simon.asc</uri>
            </key>
            <tz><text>America/Montreal</text></tz>
            <url>
              <parameters><type><text>home</text></type></parameters>
              <uri>http://nomis80.org</uri>
            </url>
          </vcard>
        </vcards>
        """

    /// The same card as RFC 6350 §8 writes it, with RFC 6351's ADR (its LABEL in RFC 6868
    /// caret form), GEO and TZ, and RFC 6350's quoted TYPE lists.
    static let rfc6350 = """
        BEGIN:VCARD\r
        VERSION:4.0\r
        FN:Simon Perreault\r
        N:Perreault;Simon;;;ing. jr,M.Sc.\r
        BDAY:--0203\r
        ANNIVERSARY:20090808T1430-0500\r
        GENDER:M\r
        LANG;PREF=1:fr\r
        LANG;PREF=2:en\r
        ORG;TYPE=work:Viagenie\r
        ADR;TYPE=work;LABEL="Simon Perreault^n2875 boul. Laurier, suite D2-630^nQu\r
         ebec, QC, Canada^nG1V 2M2":;;2875 boul. Laurier\\, suite D2-630;Quebec;QC;G1V 2M2;Canada\r
        TEL;VALUE=uri;TYPE="work,voice";PREF=1:tel:+1-418-656-9254;ext=102\r
        TEL;VALUE=uri;TYPE="work,cell,voice,video,text":tel:+1-418-262-6501\r
        EMAIL;TYPE=work:simon.perreault@viagenie.ca\r
        GEO;TYPE=work:geo:46.766336,-71.28955\r
        KEY;TYPE=work;VALUE=uri:\r
         http://www.viagenie.ca/simon.perreault/simon.asc\r
        TZ:America/Montreal\r
        URL;TYPE=home:http://nomis80.org\r
        END:VCARD\r

        """

    /// The xCard's properties, whitespace between elements removed.
    static func expectedProperties() throws -> [XMLElement] {
        let doc = try parseXMLDocument(rfc6351)
        return try XCTUnwrap(doc.child("vcard")).elements.map(withoutIndentation)
    }

    static func withoutIndentation(_ e: XMLElement) -> XMLElement {
        var out = e
        if !e.elements.isEmpty {
            out.children = e.children.compactMap { node in
                switch node {
                case .element(let child): return .element(withoutIndentation(child))
                case .text(let t): return VCard.isBlank(t) ? nil : node
                default: return node
                }
            }
        }
        return out
    }

    /// RFC 6350's text reads into RFC 6351's xCard, property for property.
    func testRFC6350TextReadsAsRFC6351XCard() throws {
        let entry = try XCTUnwrap(VCFReader.read(Self.rfc6350).first)
        let xcard = try XCTUnwrap(entry.xcard, "a VERSION:4.0 card has its xCard")
        let expected = try Self.expectedProperties()
        XCTAssertEqual(xcard.elements.count, expected.count)
        for (got, want) in zip(xcard.elements, expected) {
            XCTAssertEqual(got, want, "\(got.name)")
        }
        // And the vCard4 model maps what it knows, keeping the rest.
        let vcard4 = try VCard4(element: xcard)
        XCTAssertEqual(vcard4.fields.fullName, "Simon Perreault")
        XCTAssertEqual(vcard4.fields.emails.map(\.address), ["simon.perreault@viagenie.ca"])
        XCTAssertTrue(Set(vcard4.extras.map(\.name)).isSuperset(of: ["gender", "anniversary", "lang", "geo", "key", "tz"]))
    }

    /// RFC 6351's xCard writes as RFC 6350 text, which reads back to the same xCard.
    func testRFC6351XCardWritesAsTextAndBack() throws {
        let expected = try Self.expectedProperties()
        let (lines, refused) = XCardText.lines(of: expected)
        XCTAssertEqual(refused, [])
        XCTAssertEqual(lines, [
            "FN:Simon Perreault",
            "N:Perreault;Simon;;;ing. jr,M.Sc.",
            "BDAY:--0203",
            "ANNIVERSARY:20090808T1430-0500",
            "GENDER:M",
            "LANG;PREF=1:fr",
            "LANG;PREF=2:en",
            "ORG;TYPE=work:Viagenie",
            "ADR;TYPE=work;LABEL=\"Simon Perreault^n2875 boul. Laurier, suite D2-630^nQuebec, QC, Canada^nG1V 2M2\":"
                + ";;2875 boul. Laurier\\, suite D2-630;Quebec;QC;G1V 2M2;Canada",
            "TEL;TYPE=work,voice;PREF=1;VALUE=uri:tel:+1-418-656-9254;ext=102",
            "TEL;TYPE=work,cell,voice,video,text;VALUE=uri:tel:+1-418-262-6501",
            "EMAIL;TYPE=work:simon.perreault@viagenie.ca",
            "GEO;TYPE=work:geo:46.766336,-71.28955",
            "KEY;TYPE=work:http://www.viagenie.ca/simon.perreault/simon.asc",
            "TZ:America/Montreal",
            "URL;TYPE=home:http://nomis80.org",
        ])
        let file = (["BEGIN:VCARD", "VERSION:4.0"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
        let again = try XCTUnwrap(VCFReader.read(file).first?.xcard)
        XCTAssertEqual(again.elements, expected)
    }

    /// Escapes survive both ways: text separators, line breaks, backslashes, parameter quotes
    /// (RFC 6868), an unknown property's value as written, a URI's backslash, a time alone.
    func testEscapingRoundTrips() throws {
        let file = """
            BEGIN:VCARD
            VERSION:4.0
            NOTE:one\\, two\\; three\\\\ four\\nfive
            X-FOO;X-PARAM="a:b;c":raw\\, as it is
            X-BAR;VALUE=text:plain\\, escaped
            NICKNAME:Al\\,ly,Bo
            CATEGORIES:a,b
            EMAIL;TYPE=home;LABEL="say ^'hi^' ^^ ^n":x@example.org
            URL:http://example.org/a\\\\b
            BDAY:T102200
            item1.TEL;TYPE=cell:+1 555
            END:VCARD

            """
        let xcard = try XCTUnwrap(VCFReader.read(file).first?.xcard)
        let p = xcard.elements
        XCTAssertEqual(p[0], XMLElement("note", namespace: Namespace.vcard4, children: [.element(XCardText.leaf("text", "one, two; three\\ four\nfive"))]))
        XCTAssertEqual(p[1].elements.last, XCardText.leaf("unknown", "raw\\, as it is"))
        XCTAssertEqual(p[1].child("parameters")?.child("x-param")?.elements.first, XCardText.leaf("unknown", "a:b;c"))
        XCTAssertEqual(p[2].elements.last, XCardText.leaf("text", "plain, escaped"))
        XCTAssertEqual(p[3].elements.map(\.text), ["Al,ly", "Bo"])
        XCTAssertEqual(p[4].elements.map(\.text), ["a", "b"])
        XCTAssertEqual(p[5].child("parameters")?.child("label")?.elements.first?.text, "say \"hi\" ^ \n")
        XCTAssertEqual(p[6].elements.last?.text, "http://example.org/a\\b")
        XCTAssertEqual(p[7].elements.last, XCardText.leaf("time", "102200"))
        XCTAssertEqual(p[8].name, "tel", "the group is dropped, so a grouped TEL still maps")
        let (lines, refused) = XCardText.lines(of: p)
        XCTAssertEqual(refused, [])
        XCTAssertEqual(lines, [
            "NOTE:one\\, two\\; three\\\\ four\\nfive",
            "X-FOO;X-PARAM=\"a:b;c\":raw\\, as it is",
            "X-BAR;VALUE=text:plain\\, escaped",
            "NICKNAME:Al\\,ly,Bo",
            "CATEGORIES:a,b",
            "EMAIL;TYPE=home;LABEL=\"say ^'hi^' ^^ ^n\":x@example.org",
            "URL:http://example.org/a\\\\b",
            "BDAY:T102200",
            "TEL;TYPE=cell:+1 555",
        ])
    }

    /// What text cannot carry is refused, not written broken: attributes, another namespace, a
    /// raw line break where no escape exists; a `<group/>`'s members carry its name.
    func testRefusesWhatTextCannotCarry() throws {
        let doc = try parseXMLDocument("""
            <vcard xmlns="urn:ietf:params:xml:ns:vcard-4.0"><note a="1"><text>x</text></note>\
            <x-other xmlns="urn:example"><text>x</text></x-other><bday><date>1&#13;2</date></bday>\
            <group name="work"><tel><uri>tel:+1</uri></tel></group><x-empty/></vcard>
            """)
        let (lines, refused) = XCardText.lines(of: doc.elements)
        XCTAssertEqual(lines, ["WORK.TEL;VALUE=uri:tel:+1"])
        XCTAssertEqual(refused.map(\.name), ["note", "x-other", "bday", "x-empty"])
    }

    /// A 3.0 file has no xCard: it goes through the vcard-temp fields as before.
    func testVersion3HasNoXCard() throws {
        let entry = try XCTUnwrap(VCFReader.read("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\n").first)
        XCTAssertNil(entry.xcard)
    }

    /// A merged profile with the vCard4 node's unmapped properties writes as 4.0 and reads back
    /// to the same fields and the same properties.
    func testVCF4WriterKeepsUnmappedProperties() throws {
        var card = VCard()
        card.fullName = "Ally Example"
        card.nickname = "Ally"
        card.emails = [VCard.Email(address: "ally@example.org", types: ["internet", "pref"])]
        card.birthday = "1985-04-12"
        card.photo = VCard.Photo(type: "image/png", base64: "iVBORw0KGgo=")
        let extras = [
            XMLElement("gender", namespace: Namespace.vcard4, children: [.element(XCardText.leaf("sex", "F"))]),
            XMLElement("x-foo", namespace: Namespace.vcard4, children: [.element(XCardText.leaf("unknown", "bar, baz"))]),
            XMLElement("anniversary", namespace: Namespace.vcard4, children: [.element(XCardText.leaf("date", "20090808"))]),
        ]
        let text = VCF4Writer.write(card, vcard4Extras: extras)
        XCTAssertTrue(text.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"), text)
        XCTAssertTrue(text.contains("\r\nGENDER:F\r\n"), text)
        XCTAssertTrue(text.contains("\r\nX-FOO:bar, baz\r\n"), text)
        XCTAssertTrue(text.contains("\r\nPHOTO:data:image/png;base64,iVBORw0KGgo=\r\n"), text)
        XCTAssertEqual(VCF4Writer.losses(card, vcard4Extras: extras), [])
        let entry = try XCTUnwrap(VCFReader.read(text).first)
        XCTAssertEqual(entry.card.fullName, card.fullName)
        XCTAssertEqual(entry.card.emails, card.emails)
        XCTAssertEqual(entry.card.birthday, card.birthday)
        XCTAssertEqual(entry.card.photo, card.photo)
        let vcard4 = try VCard4(element: try XCTUnwrap(entry.xcard))
        XCTAssertEqual(vcard4.extras.filter { $0.name != "photo" }, extras)
    }

    /// A field the node holds only in a form it does not map (FN with its ALTID forms, which
    /// vcard-temp got the first of) is written once, in the node's form.
    func testVCF4WriterWritesAFieldOnceWhenTheNodeHoldsItWithParameters() throws {
        let entry = try XCTUnwrap(VCFReader.read("BEGIN:VCARD\r\nVERSION:4.0\r\nFN;ALTID=1;LANGUAGE=en:Taro\r\n"
                                                 + "FN;ALTID=1;LANGUAGE=ja:太郎\r\nEND:VCARD\r\n").first)
        let vcard4 = try VCard4(element: try XCTUnwrap(entry.xcard))
        XCTAssertNil(vcard4.fields.fullName)
        XCTAssertEqual(entry.card.fullName, "Taro")
        let text = VCF4Writer.write(entry.card, vcard4Extras: vcard4.extras)
        XCTAssertEqual(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("FN") },
                       ["FN;ALTID=1;LANGUAGE=en:Taro", "FN;ALTID=1;LANGUAGE=ja:太郎"])
    }
}
