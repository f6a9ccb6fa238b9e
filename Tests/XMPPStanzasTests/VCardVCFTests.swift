import XCTest
import XMLTree
@testable import XMPPStanzas

/// .vcf reading (vCard 3.0 and 4.0) and writing (3.0: escaping, folding).
final class VCardVCFTests: XCTestCase {
    /// RFC 2426 §7's example, with folded lines and a bare type parameter.
    static let rfc2426 = """
        BEGIN:vCard\r
        VERSION:3.0\r
        FN:Frank Dawson\r
        ORG:Lotus Development Corporation\r
        ADR;TYPE=WORK,POSTAL,PARCEL:;;6544 Battleford Drive\r
         ;Raleigh;NC;27613-3502;U.S.A.\r
        TEL;TYPE=VOICE,MSG,WORK:+1-919-676-9515\r
        TEL;TYPE=FAX,WORK:+1-919-676-9564\r
        EMAIL;TYPE=INTERNET,PREF:Frank_Dawson@Lotus.com\r
        EMAIL;TYPE=INTERNET:fdawson@earthlink.net\r
        URL:http://home.earthlink.net/~fdawson\r
        END:vCard\r

        """

    /// RFC 6350 §8's example (vCard 4.0), abridged.
    static let rfc6350 = """
        BEGIN:VCARD
        VERSION:4.0
        FN:Simon Perreault
        N:Perreault;Simon;;;ing. jr,M.Sc.
        BDAY:--0203
        ANNIVERSARY:20090808T1430-0500
        GENDER:M
        LANG;PREF=1:fr
        ORG;TYPE=work:Viagenie
        ADR;TYPE=work:;Suite D2-630;2875 Laurier;
         Quebec;QC;G1V 2M2;Canada
        TEL;VALUE=uri;TYPE="work,voice";PREF=1:tel:+1-418-656-9254;ext=102
        TEL;VALUE=uri;TYPE="work,cell,voice,video,text":tel:+1-418-262-6501
        EMAIL;TYPE=work:simon.perreault@viagenie.ca
        IMPP:xmpp:simon@viagenie.ca
        TZ:-0500
        URL;TYPE=home:http://nomis80.org
        END:VCARD
        """

    func testReadsRFC2426Example() throws {
        let entries = try VCFReader.read(Self.rfc2426)
        XCTAssertEqual(entries.count, 1)
        let c = entries[0].card
        XCTAssertEqual(c.fullName, "Frank Dawson")
        XCTAssertEqual(c.organization.name, "Lotus Development Corporation")
        XCTAssertEqual(c.addresses, [VCard.Address(street: "6544 Battleford Drive", locality: "Raleigh", region: "NC",
                                                   code: "27613-3502", country: "U.S.A.", types: ["work", "postal", "parcel"])])
        XCTAssertEqual(c.phones, [VCard.Phone(number: "+1-919-676-9515", types: ["voice", "msg", "work"]),
                                  VCard.Phone(number: "+1-919-676-9564", types: ["fax", "work"])])
        XCTAssertEqual(c.emails, [VCard.Email(address: "Frank_Dawson@Lotus.com", types: ["internet", "pref"]),
                                  VCard.Email(address: "fdawson@earthlink.net", types: ["internet"])])
        XCTAssertEqual(c.url, "http://home.earthlink.net/~fdawson")
    }

    func testReadsRFC6350Example() throws {
        let c = try XCTUnwrap(try VCFReader.read(Self.rfc6350).first).card
        XCTAssertEqual(c.name, VCard.Name(family: "Perreault", given: "Simon", suffix: "ing. jr,M.Sc."))
        XCTAssertEqual(c.birthday, "--0203")
        XCTAssertEqual(c.organization.name, "Viagenie")
        XCTAssertEqual(c.addresses.first?.extended, "Suite D2-630")
        XCTAssertEqual(c.addresses.first?.street, "2875 Laurier")
        XCTAssertEqual(c.addresses.first?.country, "Canada")
        XCTAssertEqual(c.phones, [VCard.Phone(number: "+1-418-656-9254;ext=102", types: ["work", "voice", "pref"]),
                                  VCard.Phone(number: "+1-418-262-6501", types: ["work", "cell", "voice", "video", "text"])])
        XCTAssertEqual(c.emails, [VCard.Email(address: "simon.perreault@viagenie.ca", types: ["work"])])
        XCTAssertEqual(c.jabberID, "simon@viagenie.ca")
        XCTAssertEqual(c.url, "http://nomis80.org")
        XCTAssertEqual(c.extras.map(\.name), ["ANNIVERSARY", "GENDER", "LANG", "TZ"])
        XCTAssertEqual(c.extras.last?.text, "-0500")
    }

    func testReads40DataURIPhotoAnd30BinaryPhoto() throws {
        let v4 = "BEGIN:VCARD\nVERSION:4.0\nPHOTO:data:image/png;base64,iVBORw0K\n GgoAAAA=\nEND:VCARD\n"
        XCTAssertEqual(try VCFReader.read(v4)[0].card.photo, VCard.Photo(type: "image/png", base64: "iVBORw0KGgoAAAA="))
        let v3 = "BEGIN:VCARD\nVERSION:3.0\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ\nEND:VCARD\n"
        XCTAssertEqual(try VCFReader.read(v3)[0].card.photo, VCard.Photo(type: "image/jpeg", base64: "/9j/4AAQ"))
        let uri = "BEGIN:VCARD\nVERSION:3.0\nPHOTO;VALUE=uri:http\\://example.org/me.png\nEND:VCARD\n"
        XCTAssertEqual(try VCFReader.read(uri)[0].card.photo, VCard.Photo(externalURL: "http://example.org/me.png"))
    }

    func testWritesEscapedAndFolded30() throws {
        var c = VCard()
        c.fullName = "Doe, Jane; \"JD\""
        c.note = "line one\nline two, with a \\ backslash; and ünïcødé " + String(repeating: "é", count: 60)
        c.organization = VCard.Organization(name: "ACME; Inc.", units: ["R&D", "Tea, Coffee"])
        c.phones = [VCard.Phone(number: "+1 555 0100", types: ["cell", "voice"])]
        c.jabberID = "jane@example.org"
        let text = VCFWriter.write(c)
        XCTAssertTrue(text.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Doe\\, Jane\\; \"JD\"\r\nN:;;;;\r\n"), text)
        XCTAssertTrue(text.contains("TEL;TYPE=cell,voice:+1 555 0100\r\n"), text)
        XCTAssertTrue(text.contains("ORG:ACME\\; Inc.;R&D;Tea\\, Coffee\r\n"), text)
        XCTAssertTrue(text.contains("IMPP:xmpp:jane@example.org\r\n"), text)
        XCTAssertTrue(text.contains("NOTE:line one\\nline two\\, with a \\\\ backslash\\; and ünïcødé "), text)
        XCTAssertTrue(text.hasSuffix("END:VCARD\r\n"))
        // Every physical line fits in 75 octets, is valid UTF-8 on its own, and only folds start with a space.
        let lines = text.components(separatedBy: "\r\n").dropLast()
        for line in lines {
            XCTAssertLessThanOrEqual(line.utf8.count, 75, line)
            XCTAssertNotNil(String(validating: Array(line.utf8), as: UTF8.self))
        }
        XCTAssertGreaterThan(lines.filter { $0.hasPrefix(" ") }.count, 0, "the long NOTE must fold")
        XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        XCTAssertEqual(try VCFReader.read(text)[0].card, c)
    }

    func testRoundTripOfEveryFieldAndSimpleExtras() throws {
        var c = try VCard(element: try parseXMLDocument(VCardXMLTests.stpeter))
        c.extras = c.extras.filter { $0.name != "TEL" } + [XMLElement("TZ", namespace: Namespace.vcardTemp, children: [.text("-05:00")])]
        c.note = "multi\nline ☃"
        c.name.prefix = "Dr."
        c.name.suffix = "Jr."
        c.organization.units = ["Unit A", "Unit B"]
        c.photo = VCard.Photo(type: "image/png", base64: String(repeating: "QUJD", count: 100))
        let text = VCFWriter.write(c)
        XCTAssertEqual(try VCFReader.read(text).map(\.card), [c])
        XCTAssertEqual(try VCFReader.read(VCFWriter.write([c, VCard()])).map(\.card), [c, VCard()])
    }

    /// Issue 27 item 9, RFC 6350 §3.2: a writer that folds at 75 octets may split a multi-octet
    /// character; lines are unfolded as bytes, then read as UTF-8, so "Ärger" and "😀" come back
    /// whole, whichever octet the fold falls after (vCard 3.0 and 4.0, CRLF and LF).
    func testAFoldInsideAUTF8SequenceIsUnfoldedFirst() throws {
        let name = "Jürgen Ärger 😀 東京"
        let octets = Array(name.utf8)
        for cut in 1..<octets.count {
            for (version, eol) in [("3.0", "\r\n"), ("4.0", "\n")] {
                let bytes = Array("BEGIN:VCARD\(eol)VERSION:\(version)\(eol)FN:".utf8) + octets[..<cut] + Array("\(eol) ".utf8)
                    + octets[cut...] + Array("\(eol)END:VCARD\(eol)".utf8)
                let cards = try VCFReader.read(bytes)
                XCTAssertEqual(cards.first?.card.fullName, name, "cut after octet \(cut), vCard \(version)")
            }
        }
        // Invalid UTF-8 is still refused once unfolded, and named by its logical line's start.
        let broken: [UInt8] = Array("BEGIN:VCARD\nVERSION:4.0\nFN:".utf8) + [0xC3] + Array("\n x\nEND:VCARD\n".utf8)
        XCTAssertThrowsError(try VCFReader.read(broken)) { XCTAssertEqual(($0 as? VCFError)?.line, 3) }
    }

    func testMalformedInputNamesTheLine() {
        func line(_ text: String) -> Int? {
            do { _ = try VCFReader.read(text); return nil } catch { return error.line }
        }
        XCTAssertEqual(line("BEGIN:VCARD\nVERSION:3.0\nFN:ok\nthis is not a property\nEND:VCARD\n"), 4)
        XCTAssertEqual(line("BEGIN:VCARD\nVERSION:5.0\nEND:VCARD\n"), 2)
        XCTAssertEqual(line("\nBEGIN:VCARD\nFN:no version\nEND:VCARD\n"), 2, "a card without VERSION is named by its BEGIN")
        XCTAssertEqual(line("\n\nBEGIN:VCARD\nFN:never closed\n"), 3)
        XCTAssertEqual(line("FN:before begin\n"), 1)
        XCTAssertEqual(line("BEGIN:VCARD\nBEGIN:VCARD\n"), 2)
        // A value that cannot be used costs its property, not the file (VCardDamagedExportTests); structure still does.
        XCTAssertEqual(line("BEGIN:VCARD\nVERSION;X=\"3.0:x\nEND:VCARD\n"), 2)
        XCTAssertEqual(line("BEGIN:VCARD\nVERSION:3.0\nEND:VC\u{07}ARD\n"), 3)
        XCTAssertEqual(line(" folded first\n"), 1)
        XCTAssertEqual(line("BEGIN:VCARD\nVERSION:3.0\nFN:x\nEND:VCARD\nEND:VCARD\n"), 5)
        XCTAssertThrowsError(try VCFReader.read("")) { XCTAssertEqual($0 as? VCFError, .noCard) }
        let bad: [UInt8] = Array("BEGIN:VCARD\nFN:".utf8) + [0xC3, 0x28] + Array("\nEND:VCARD\n".utf8)
        XCTAssertThrowsError(try VCFReader.read(bad)) { XCTAssertEqual(($0 as? VCFError)?.line, 2) }
        XCTAssertThrowsError(try VCFReader.read([UInt8](repeating: 0x41, count: VCFReader.maxBytes + 1))) {
            XCTAssertEqual($0 as? VCFError, .tooLarge(limit: VCFReader.maxBytes))
        }
        XCTAssertEqual(VCFError.malformed(line: 4, reason: "x").description, "line 4: x")
    }

    /// vCard 2.1 as Android's contacts app exports it: quoted-printable UTF-8 with soft line
    /// breaks, bare TYPE words, a BASE64 photo ending in a blank line, and a vendor property
    /// whose name RFC 6350 does not allow (dropped with a warning, not fatal).
    func testReadsVCard21FromPhones() throws {
        let text = "BEGIN:VCARD\r\nVERSION:2.1\r\n"
            + "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen;;;\r\n"
            + "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen M=C3=BCller\r\n"
            + "TEL;CELL;PREF:+49 170 1234567\r\nTEL;HOME:+49 30 1234\r\nEMAIL;HOME:jm@example.org\r\n"
            + "NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:Erste Zeile=0D=0Azweite Zeile, mit einem sehr langen Tex=\r\n"
            + "t am Ende\r\n"
            + "ADR;WORK;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:;;Stra=DFe 1;K=F6ln;;50667;Deutschland\r\n"
            + "PHOTO;ENCODING=BASE64;JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcG\r\n BwgHBwcJCQgKDBQNDAsLDBkSEw8U\r\n\r\n"
            + "OPPO_RECENT_CALL:0\r\nX-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;JM;1;;;;;;;;;;;;;\r\n"
            + "END:VCARD\r\n"
        let entry = try XCTUnwrap(try VCFReader.read(text).first)
        let c = entry.card
        XCTAssertEqual(c.fullName, "Jürgen Müller")
        XCTAssertEqual(c.name.family, "Müller")
        XCTAssertEqual(c.name.given, "Jürgen")
        XCTAssertEqual(c.phones, [VCard.Phone(number: "+49 170 1234567", types: ["cell", "pref"]),
                                  VCard.Phone(number: "+49 30 1234", types: ["home"])])
        XCTAssertEqual(c.emails, [VCard.Email(address: "jm@example.org", types: ["home"])])
        XCTAssertEqual(c.note, "Erste Zeile\nzweite Zeile, mit einem sehr langen Text am Ende")
        XCTAssertEqual(c.addresses.first?.street, "Straße 1")
        XCTAssertEqual(c.addresses.first?.locality, "Köln")
        XCTAssertEqual(c.addresses.first?.types, ["work"])
        XCTAssertEqual(c.photo?.type, "image/jpeg")
        XCTAssertEqual(c.photo?.base64, "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBwgHBwcJCQgKDBQNDAsLDBkSEw8U")
        XCTAssertEqual(entry.warnings, ["line 14: dropped 'OPPO_RECENT_CALL:0' (not a vCard property name)"])
        XCTAssertEqual(c.extras.map(\.name), ["X-ANDROID-CUSTOM"])
        // What was read from 2.1 is written as 3.0 and reads back the same.
        XCTAssertEqual(try VCFReader.read(VCFWriter.write(c)).map(\.card), [c])
    }

    func testLenientBitsAppleWrites() throws {
        let text = "\u{FEFF}BEGIN:VCARD\r\nVERSION:3.0\r\nitem1.EMAIL;type=INTERNET;type=pref:a@b.c\r\nitem1.X-ABLabel:_$!<Other>!$_\r\n"
            + "TEL;CELL;VOICE:+49 1\r\nBDAY:19700415\r\nX-JABBER:j@b.c\r\nURL:https\\://x.org/a\\,b\r\nEND:VCARD"
        let c = try VCFReader.read(text)[0].card
        XCTAssertEqual(c.emails, [VCard.Email(address: "a@b.c", types: ["internet", "pref"])])
        XCTAssertEqual(c.phones, [VCard.Phone(number: "+49 1", types: ["cell", "voice"])])
        XCTAssertEqual(c.birthday, "1970-04-15")
        XCTAssertEqual(c.jabberID, "j@b.c")
        XCTAssertEqual(c.url, "https://x.org/a,b")
        XCTAssertEqual(c.extras.map(\.name), ["X-ABLABEL"])
    }

    /// Values from the server that hold line breaks cannot start a property (or a second card) of their own.
    func testHostileValuesStayInsideTheirProperty() throws {
        var c = VCard()
        let forged = "\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Forged\r\nEMAIL:evil@example.org"
        c.fullName = "Jane" + forged
        c.url = "https://example.org/" + forged
        c.photo = VCard.Photo(type: "image/png", externalURL: "https://example.org/p.png\n\u{7F}FN:Forged")
        c.note = "a\rb\nc"
        c.jabberID = "j@example.org\nFN:Forged"
        c.extras = [XMLElement("TZ", namespace: Namespace.vcardTemp, children: [.text("+01:00\r\nFN:Forged")])]
        let text = VCFWriter.write(c)
        let lines = text.components(separatedBy: "\r\n").dropLast()
        XCTAssertFalse(lines.contains { $0.contains("\r") || $0.contains("\n") }, text)
        XCTAssertFalse(lines.contains { $0.hasPrefix("FN:Forged") || $0.hasPrefix("EMAIL") || $0.hasPrefix("BEGIN") && $0 != lines.first }, text)
        XCTAssertTrue(text.contains("URL:https://example.org/%0D%0AEND:VCARD%0D%0ABEGIN:VCARD"), text)
        XCTAssertTrue(text.contains("PHOTO;VALUE=uri;TYPE=PNG:https://example.org/p.png%0A%7FFN:Forged\r\n"), text)
        let read = try VCFReader.read(text)
        XCTAssertEqual(read.count, 1, "one card, not a forged second one")
        XCTAssertEqual(read[0].card.fullName, "Jane" + forged.replacingOccurrences(of: "\r\n", with: "\n"), "CRLF is one line break")
        XCTAssertEqual(read[0].card.note, "a\nb\nc", "a lone CR is a line break, written as \\n")
        XCTAssertEqual(read[0].card.url, "https://example.org/%0D%0AEND:VCARD%0D%0ABEGIN:VCARD%0D%0AVERSION:3.0%0D%0AFN:Forged%0D%0AEMAIL:evil@example.org")
        XCTAssertEqual(read[0].card.jabberID, c.jabberID)
        XCTAssertEqual(VCFText.uri("a\tb%0A"), "a\tb%0A", "a tab (which the reader keeps) and percent signs stay")
    }

    func testEscapingHelpers() {
        XCTAssertEqual(VCFText.escape("a\r\nb\rc\nd,e;f\\g"), "a\\nb\\nc\\nd\\,e\\;f\\\\g")
        XCTAssertEqual(VCFText.unescape("a\\nb\\Nc\\,d\\;e\\\\f\\"), "a\nb\nc,d;e\\f\\")
        XCTAssertEqual(VCFText.components("a\\;b;;c"), ["a;b", nil, "c"])
        var out = ""
        VCFText.fold(String(repeating: "😀", count: 40), into: &out)
        let lines = out.components(separatedBy: "\r\n").dropLast()
        XCTAssertEqual(lines.map(\.utf8.count), [72, 73, 17])  // 18×4, 1+18×4, 1+4×4: never splits a scalar
    }
}
