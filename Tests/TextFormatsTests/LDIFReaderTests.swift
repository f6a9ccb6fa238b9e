import TextFormats
import XCTest

/// LDIF as RFC 2849 specifies it (its own examples) and as `ldapsearch -LLL` writes it.
final class LDIFReaderTests: XCTestCase {
    private func parse(_ text: String, limits: LDIFLimits = LDIFLimits()) throws -> [LDIFEntry] {
        try LDIFReader.parse(Array(text.utf8), limits: limits)
    }

    private func text(_ entry: LDIFEntry, _ description: String) -> [String] {
        entry.values(description).map { String(decoding: $0, as: UTF8.self) }
    }

    private func assertError(_ text: String, _ expected: LDIFError, limits: LDIFLimits = LDIFLimits(),
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try LDIFReader.parse(Array(text.utf8), limits: limits), file: file, line: line) {
            XCTAssertEqual($0 as? LDIFError, expected, file: file, line: line)
        }
    }

    /// RFC 2849 example 1: two entries, a multi-valued cn, a version line.
    func testRFCExample1TwoEntries() throws {
        let entries = try parse("""
            version: 1
            dn: cn=Barbara Jensen, ou=Product Development, dc=airius, dc=com
            objectclass: top
            objectclass: person
            objectclass: organizationalPerson
            cn: Barbara Jensen
            cn: Barbara J Jensen
            cn: Babs Jensen
            sn: Jensen
            uid: bjensen
            telephonenumber: +1 408 555 1212
            description: A big sailing fan.

            dn: cn=Bjorn Jensen, ou=Accounting, dc=airius, dc=com
            objectclass: top
            objectclass: person
            objectclass: organizationalPerson
            cn: Bjorn Jensen
            sn: Jensen
            telephonenumber: +1 408 555 1212

            """)
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(entries[0].line, 2)
        XCTAssertEqual(entries[0].dn, "cn=Barbara Jensen, ou=Product Development, dc=airius, dc=com")
        XCTAssertEqual(text(entries[0], "cn"), ["Barbara Jensen", "Barbara J Jensen", "Babs Jensen"])
        XCTAssertEqual(text(entries[0], "UID"), ["bjensen"], "types compare ignoring case")
        XCTAssertEqual(entries[0].attributes.first { $0.type == "uid" }?.line, 10)
        XCTAssertEqual(entries[1].line, 14)
        XCTAssertEqual(text(entries[1], "cn"), ["Bjorn Jensen"])
        XCTAssertEqual(text(entries[1], "uid"), [])
    }

    /// RFC 2849 example 2: no space after the colons, and a folded value.
    func testRFCExample2FoldedValue() throws {
        let entries = try parse("""
            version: 1
            dn:cn=Barbara Jensen, ou=Product Development, dc=airius, dc=com
            objectclass:top
            cn:Barbara Jensen
            description:Babs is a big sailing fan, and travels extensively in sea
             rch of perfect sailing conditions.
            title:Product Manager, Rod and Reel Division
            """)
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(text(entries[0], "description"),
                       ["Babs is a big sailing fan, and travels extensively in search of perfect sailing conditions."])
        XCTAssertEqual(text(entries[0], "title"), ["Product Manager, Rod and Reel Division"])
        XCTAssertEqual(entries[0].attributes.last?.line, 7)
    }

    /// RFC 2849 example 3: a base-64 value holding a CR.
    func testRFCExample3Base64Value() throws {
        let entries = try parse("""
            version: 1
            dn: cn=Gern Jensen, ou=Product Testing, dc=airius, dc=com
            cn: Gern Jensen
            uid: gernj
            description:: V2hhdCBhIGNhcmVmdWwgcmVhZGVyIHlvdSBhcmUhICBUaGlzIHZhbHVlIGlzIGJhc2UtNjQtZW5jb2RlZCBiZWNhdXNlIGl0IGhhcyBhIGNvbnRyb2wgY2hhcmFjdGVyIGluIGl0IChhIENSKS4NICBCeSB0aGUgd2F5LCB5b3Ugc2hvdWxkIHJlYWxseSBnZXQgb3V0IG1vcmUu
            """)
        XCTAssertEqual(text(entries[0], "description"), [
            "What a careful reader you are!  This value is base-64-encoded because it has a control character in it (a CR).\r"
                + "  By the way, you should really get out more.",
        ])
    }

    /// RFC 2849 example 4: a base-64 DN, UTF-8 values, comments, attribute options.
    func testRFCExample4OptionsAndBase64DN() throws {
        let entries = try parse("""
            version: 1
            dn:: b3U95Za25qWt6YOoLG89QWlyaXVz
            # dn:: ou=<JapaneseOU>,o=Airius
            objectclass: top
            objectclass: organizationalUnit
            ou:: 5Za25qWt6YOo
            # ou:: <JapaneseOU>
            ou;lang-ja:: 5Za25qWt6YOo
            # ou;lang-ja:: <JapaneseOU>
            ou;lang-ja;phonetic:: 44GI44GE44GO44KH44GG44G2
            # ou;lang-ja:: <JapaneseOU_in_phonetic_representation>
            ou;lang-en: Sales
            description: Japanese office
            """)
        XCTAssertEqual(entries[0].dn, "ou=営業部,o=Airius")
        XCTAssertEqual(text(entries[0], "ou"), ["営業部"], "without options: the values without options")
        XCTAssertEqual(text(entries[0], "ou;lang-en"), ["Sales"])
        XCTAssertEqual(text(entries[0], "OU;Phonetic;LANG-JA"), ["えいぎょうぶ"], "options in any order and case")
        XCTAssertEqual(entries[0].attributes.first { $0.options == ["lang-en"] }?.line, 12)
    }

    /// RFC 2849 example 5: a value by URL is refused, naming the line.
    func testRFCExample5URLValueIsRefused() {
        assertError("""
            version: 1
            dn: cn=Horatio Jensen, ou=Product Testing, dc=airius, dc=com
            cn: Horatio Jensen
            uid: hjensen
            jpegphoto:< file:///usr/local/directory/photos/fiona.jpg
            """, .urlValue(line: 5, attribute: "jpegphoto"))
    }

    /// RFC 2849 example 6: change records are not a directory's content.
    func testRFCExample6ChangeRecordIsRefused() {
        assertError("""
            version: 1
            # Add a new entry
            dn: cn=Fiona Jensen, ou=Marketing, dc=airius, dc=com
            changetype: add
            objectclass: top
            """, .changeRecord(line: 4))
    }

    /// Without options in the request, subtypes stand in when the type itself has no value
    /// (`jpegPhoto;binary`), as LDAP returns them.
    func testSubtypesWhenThePlainTypeIsAbsent() throws {
        let entries = try parse("dn: uid=a\njpegPhoto;binary:: /9j/\ncn;lang-en: Ann\ncn;lang-de: Anna\n")
        XCTAssertEqual(entries[0].values("jpegphoto"), [[0xFF, 0xD8, 0xFF]])
        XCTAssertEqual(text(entries[0], "cn"), ["Ann", "Anna"])
    }

    /// ldapsearch folds at 76 columns without regard to UTF-8: the bytes are joined first.
    func testFoldInsideAUTF8SequenceAndCRLF() throws {
        var bytes = Array("dn: uid=z\r\ncn: Zo".utf8) + [0xC3]
        bytes += Array("\r\n ".utf8) + [0xAB] + Array("\r\n\r\n".utf8)
        let entries = try LDIFReader.parse(bytes)
        XCTAssertEqual(text(entries[0], "cn"), ["Zoë"])
    }

    /// `ldapsearch -LLL` output: no version, several blank lines, comment lines folded too,
    /// a DN folded, a file without a final line end, a byte-order mark.
    func testLdapsearchShapes() throws {
        let entries = try parse("\u{FEFF}# extended LDIF\n# folded\n  comment\n\n\ndn: uid=ann,ou=People,dc=exa\n mple,dc=org\nuid: ann\n\n\n\ndn: uid=bob,dc=example,dc=org\nuid: bob")
        XCTAssertEqual(entries.map(\.dn), ["uid=ann,ou=People,dc=example,dc=org", "uid=bob,dc=example,dc=org"])
        XCTAssertEqual(entries.map(\.line), [6, 12])
        XCTAssertEqual(text(entries[1], "uid"), ["bob"])
    }

    func testAnEntryMayHaveNoAttributesAndEmptyValuesStay() throws {
        let entries = try parse("dn: dc=example,dc=org\n\ndn: uid=a\ndescription:\nmail:: \n")
        XCTAssertEqual(entries[0].attributes, [])
        XCTAssertEqual(entries[1].values("description"), [[]])
        XCTAssertEqual(entries[1].values("mail"), [[]])
    }

    func testErrorsNameTheirLine() {
        assertError("dn: a\n\n continued\n", .continuationWithoutLine(line: 3))
        assertError(" x\n", .continuationWithoutLine(line: 1))
        assertError("dn: a\ncn Ann\n", .missingColon(line: 2))
        assertError("dn: a\nc n: Ann\n", .badAttributeName(line: 2, name: "c n"))
        assertError("dn: a\n1cn: Ann\n", .badAttributeName(line: 2, name: "1cn"))
        assertError("dn: a\ncn;: Ann\n", .badAttributeName(line: 2, name: "cn;"))
        assertError("dn: a\ncn:: QW5u=\n", .badBase64(line: 2))
        assertError("dn: a\ncn:: QW=u\n", .badBase64(line: 2))
        assertError("dn: a\ncn:: Q===\n", .badBase64(line: 2))
        assertError("cn: Ann\n", .missingDN(line: 1))
        assertError("dn: a\n\ncn: Ann\n", .missingDN(line: 3))
        assertError("version: 2\ndn: a\n", .badVersion(line: 1))
        assertError("dn: a\n\nversion: 1\n", .badVersion(line: 3))
        assertError("dn:: //79\n", .invalidDN(line: 1))
        assertError("dn: a\ncn: A\u{0}n\n", .controlByte(line: 2))
        assertError("dn: a\ncn: A\rn\n", .controlByte(line: 2))
        assertError("dn: a\ncontrol: 1.2.3 true\n", .changeRecord(line: 2))
    }

    func testOIDsAreAttributeTypes() throws {
        let entries = try parse("dn: a\n2.5.4.3: Ann\n")
        XCTAssertEqual(text(entries[0], "2.5.4.3"), ["Ann"])
    }

    func testLimits() {
        var limits = LDIFLimits()
        limits.maxBytes = 10
        assertError("dn: uid=ann\n", .tooLarge(limit: 10), limits: limits)
        limits = LDIFLimits()
        limits.maxLineBytes = 12
        assertError("dn: a\ncn: 0123456789\n", .lineTooLong(line: 2, limit: 12), limits: limits)
        assertError("dn: a\ncn: 01234\n 56789\n", .lineTooLong(line: 2, limit: 12), limits: limits)
        limits = LDIFLimits()
        limits.maxAttributes = 2
        assertError("dn: a\ncn: 1\ncn: 2\ncn: 3\n", .tooManyAttributes(line: 1, limit: 2), limits: limits)
        limits = LDIFLimits()
        limits.maxEntries = 1
        assertError("dn: a\n\ndn: b\n", .tooManyEntries(limit: 1), limits: limits)
    }

    /// Comment text and base 64 never reach a terminal unescaped through an error.
    func testErrorsEscapeNames() {
        XCTAssertEqual(LDIFError.badAttributeName(line: 1, name: "a\u{1B}[2J").description,
                       "line 1: 'a\\e[2J' is not an attribute name")
    }

    /// Many folds and many values stay linear (a quadratic join would take minutes here).
    func testLargeInputIsLinear() throws {
        var text = "dn: uid=big\njpegPhoto:: "
        text += String(repeating: "QUFB", count: 10)
        text += String(repeating: "\n QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB", count: 20_000)
        text += "\n"
        for i in 0..<1000 { text += "\ndn: uid=u\(i)\nuid: u\(i)\nou: A\nou: B\n" }
        let entries = try parse(text)
        XCTAssertEqual(entries.count, 1001)
        XCTAssertEqual(entries[0].values("jpegPhoto").first?.count, 30 + 20_000 * 57)
    }
}
