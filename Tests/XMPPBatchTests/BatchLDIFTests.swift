import CryptoPrimitives
import Foundation
import TextFormats
import XCTest
@testable import XMPPBatch

/// LDIF as the batch's input: `--map`, `--format` detection, and the rows it gives, which must
/// be those of the same data as CSV.
final class BatchLDIFTests: XCTestCase {
    private static let jpeg: [UInt8] = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        return (try? [UInt8](Data(contentsOf: url.appendingPathComponent("PNGImageTests/Data/colour/adobe-rgb.jpg")))) ?? []
    }()

    private func configuration(map: String = DirectoryMap.inetOrgPerson) throws -> BatchConfiguration {
        var configuration = BatchConfiguration()
        configuration.domain = "example.org"
        configuration.generatePasswords = true
        configuration.directoryMap = try DirectoryMap(map)
        return configuration
    }

    private func ldif() -> String {
        // As ldapsearch -LLL writes it: folded at 76 columns, base 64 for binary and non-ASCII.
        let photo = "jpegPhoto:: " + Base64.encode(Self.jpeg)
        var folded = ""
        var rest = Substring(photo)
        while rest.count > 76 { folded += String(rest.prefix(76)); folded += "\n "; rest = rest.dropFirst(76) }
        folded += String(rest)
        return """
            dn: uid=ann,ou=People,dc=example,dc=org
            objectClass: inetOrgPerson
            uid: ann
            cn: Ann Example
            cn: Annie
            sn: Example
            mail: ann@example.org
            ou: Class 5A
            ou: Choir;Band
            \(folded)

            dn: uid=bob,ou=People,dc=example,dc=org
            objectClass: inetOrgPerson
            uid: bob
            cn:: WsO2ZSBCb2I=
            displayName: Bob the Builder
            sn: Bob
            telephoneNumber: +1 555 0100


            """
    }

    func testEntriesBecomeRowsLikeTheCSVs() throws {
        let sheet = try BatchSheet(input: Array(ldif().utf8), name: "standard input", configuration: configuration(), baseDirectory: "/")
        XCTAssertEqual(sheet.invalid, [])
        XCTAssertEqual(sheet.columns.unknown, [], "unmapped attributes are ignored silently")
        XCTAssertEqual(sheet.notes, [], "every mapped column has a value somewhere")
        guard sheet.rows.count == 2, case .valid(let ann) = sheet.rows[0], case .valid(let bob) = sheet.rows[1] else {
            return XCTFail("\(sheet.rows)")
        }
        XCTAssertEqual(ann.line, 1)
        XCTAssertEqual(ann.jid.description, "ann@example.org")
        XCTAssertEqual(ann.profile.fullname, "Ann Example", "a single-valued column takes the first value")
        XCTAssertEqual(ann.profile.email, "ann@example.org")
        XCTAssertEqual(ann.roster.groups, ["Class 5A", "Choir;Band"], "every ou is a group; a ';' in one stays in it")
        XCTAssertEqual(ann.profile.avatar, .image(Self.jpeg), "the photo's bytes, never a file")
        XCTAssertEqual(bob.line, ldif().split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("dn: uid=bob") }.map { $0 + 1 })
        XCTAssertEqual(bob.profile.fullname, "Bob the Builder", "displayName before cn in the default map")
        XCTAssertNil(bob.profile.avatar, "mapped but missing: empty")
        XCTAssertEqual(bob.roster.groups, [])

        // The same people as CSV, with the photo as a file: the same rows, the avatar aside.
        let dir = try scratchDirectory("ldif")
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: dir + "/ann.jpg"))
        var csvConfiguration = try configuration()
        csvConfiguration.directoryMap = nil
        let csv = "username,fullname,email,avatar,groups\nann,Ann Example,ann@example.org,ann.jpg,Class 5A;Choir\\;Band\nbob,Bob the Builder,,,\n"
        let fromCSV = try BatchSheet(input: Array(csv.utf8), name: "x.csv", configuration: csvConfiguration, baseDirectory: dir)
        guard case .valid(var annCSV) = fromCSV.rows[0], case .valid(var bobCSV) = fromCSV.rows[1] else { return XCTFail() }
        XCTAssertEqual(annCSV.profile.avatar, .file(dir + "/ann.jpg"))
        annCSV.profile.avatar = ann.profile.avatar
        annCSV.line = ann.line
        bobCSV.line = bob.line
        XCTAssertEqual([annCSV, bobCSV], [ann, bob])
    }

    func testAMapChoosesAttributesAndOptions() throws {
        let text = "dn: uid=c\nuid: c\nmail: c@example.org\ncn;lang-de: Clara\ncn: Clare\nbusinessCategory: Staff\nbusinessCategory: Music\n\n"
        let sheet = try BatchSheet(input: Array(text.utf8), name: "-",
                                   configuration: configuration(map: "mail=jid, cn;lang-de=Full name,businessCategory=class"),
                                   baseDirectory: "/")
        guard case .valid(let row) = sheet.rows.first else { return XCTFail("\(sheet.rows)") }
        XCTAssertEqual(row.jid.description, "c@example.org")
        XCTAssertEqual(row.profile.fullname, "Clara")
        XCTAssertEqual(row.roster.groups, ["Staff", "Music"])

        // A misspelt attribute is said, not silently an empty column.
        let typo = try BatchSheet(input: Array(text.utf8), name: "-",
                                  configuration: configuration(map: "uid=username,mial=email,displayName=fullname,cn=fullname"),
                                  baseDirectory: "/")
        XCTAssertEqual(typo.notes, ["--map: no entry has mial, so the email column is empty throughout"])
    }

    func testMapErrors() {
        for (text, message) in [
            ("uid", "--map: 'uid' is not ATTRIBUTE=COLUMN (e.g. uid=username,cn=fullname)"),
            ("uid=username,", "--map: '' is not ATTRIBUTE=COLUMN (e.g. uid=username,cn=fullname)"),
            ("uid=usrname", "--map: 'usrname' is not a batch column (did you mean username?); columns: "
                + "jid, username, password, new_password, nickname, fullname, email, avatar, groups, contacts"),
            ("u id=username", "--map: 'u id' is not an LDAP attribute name (e.g. uid, cn, jpegPhoto, cn;lang-en)"),
            ("uid=username,UID=jid", "--map: the attribute 'UID' is mapped twice"),
        ] {
            XCTAssertThrowsError(try DirectoryMap(text)) { XCTAssertEqual(($0 as? BatchError)?.description, message, text) }
        }
    }

    /// The map stands where a CSV's header does: its errors say so, not "line 0".
    func testMissingColumnsNameTheMap() throws {
        var configuration = try configuration(map: "cn=fullname")
        XCTAssertThrowsError(try BatchSheet(input: Array("dn: a\ncn: A\n\n".utf8), name: "-", configuration: configuration, baseDirectory: "/")) {
            XCTAssertEqual(($0 as? BatchError)?.description,
                           "--map: the map needs a 'jid' column (or 'username' with --domain); found: fullname")
        }
        configuration = try self.configuration(map: "uid=username")
        configuration.generatePasswords = false
        XCTAssertThrowsError(try BatchSheet(input: Array("dn: a\nuid: a\n\n".utf8), name: "-", configuration: configuration, baseDirectory: "/")) {
            XCTAssertEqual(($0 as? BatchError)?.description, "--map: the map needs a 'password' column (or pass --generate-passwords)")
        }
    }

    func testBadEntriesAndFilesAreNamed() throws {
        let text = "dn: ou=People,dc=example,dc=org\nou: People\n\ndn: uid=x\nuid: x\njpegPhoto:: bm90IGFuIGltYWdl\n\n"
        let sheet = try BatchSheet(input: Array(text.utf8), name: "-", configuration: configuration(), baseDirectory: "/")
        XCTAssertEqual(sheet.invalid.map(\.line), [1, 4])
        XCTAssertEqual(sheet.invalid.map(\.reason), ["missing username", "avatar (inline image): not a PNG, JPEG or WebP image"])
        XCTAssertThrowsError(try BatchSheet(input: Array("dn: a\nuid:: //79\n\n".utf8), name: "standard input",
                                            configuration: configuration(), baseDirectory: "/")) {
            XCTAssertEqual(($0 as? BatchError)?.description, "standard input: line 1: uid (mapped to username) is not UTF-8 text")
        }
        XCTAssertThrowsError(try BatchSheet(input: Array("dn: a\njpegPhoto:< file:///x.jpg\n".utf8), name: "people.ldif",
                                            configuration: configuration(), baseDirectory: "/")) {
            XCTAssertEqual(($0 as? BatchError)?.description, "people.ldif: line 2: jpegPhoto:< refers to a URL, which is not read; "
                + "give the value itself (ldapsearch writes it so unless told -t)")
        }
    }

    /// A data: URI in a CSV's avatar column is an inline image too.
    func testDataURIInACSV() throws {
        var configuration = try configuration()
        configuration.directoryMap = nil
        let csv = "username,avatar\na,\"data:image/jpeg;base64,\(Base64.encode(Self.jpeg))\"\nb,\"data:image/png;base64,%%%\"\n"
        let sheet = try BatchSheet(input: Array(csv.utf8), name: "-", configuration: configuration, baseDirectory: "/")
        guard case .valid(let a) = sheet.rows[0] else { return XCTFail("\(sheet.rows)") }
        XCTAssertEqual(a.profile.avatar, .image(Self.jpeg))
        XCTAssertEqual(sheet.invalid.map(\.reason), ["avatar: a data: URI that is not base 64"])
    }

    func testFormatDetection() {
        XCTAssertEqual(BatchInputFormat.detect(path: "people.LDIF", bytes: Array("jid\n".utf8)), .ldif)
        XCTAssertEqual(BatchInputFormat.detect(path: "-", bytes: Array("dn: uid=a\n".utf8)), .ldif)
        XCTAssertEqual(BatchInputFormat.detect(path: "-", bytes: Array("\u{FEFF}# comment\n folded\n\r\nVersion: 1\n".utf8)), .ldif)
        XCTAssertEqual(BatchInputFormat.detect(path: "x.csv", bytes: Array("jid,password\n".utf8)), .csv)
        XCTAssertEqual(BatchInputFormat.detect(path: "-", bytes: []), .csv)
        XCTAssertNil(try DirectoryMap.forInput(format: nil, map: nil, path: "-", bytes: Array("jid\n".utf8)))
        XCTAssertEqual(try DirectoryMap.forInput(format: .ldif, map: nil, path: "x.csv", bytes: []), try DirectoryMap(DirectoryMap.inetOrgPerson))
        XCTAssertThrowsError(try DirectoryMap.forInput(format: nil, map: "uid=username", path: "-", bytes: Array("jid\n".utf8))) {
            XCTAssertEqual(($0 as? BatchError)?.description,
                           "--map reads LDIF, and standard input is CSV (it does not start with dn:); give --format ldif")
        }
    }

    /// The map shapes the rows, so it is part of the batch's identity; a CSV's stays as it was.
    func testTheMapIsPartOfTheIdentity() throws {
        let input = Array(ldif().utf8)
        let a = BatchInput.identity(inputSHA256: Crypto.hash(.sha256, input), configuration: try configuration())
        let b = BatchInput.identity(inputSHA256: Crypto.hash(.sha256, input), configuration: try configuration(map: "uid=username,cn=fullname"))
        XCTAssertNotEqual(a, b)
        XCTAssertTrue(a.text.hasSuffix("; ldif-map=uid=username,displayName=fullname,cn=fullname,mail=email,jpegPhoto=avatar,ou=groups"))
        var csv = try configuration()
        csv.directoryMap = nil
        XCTAssertTrue(BatchInput.identity(inputSHA256: Crypto.hash(.sha256, input), configuration: csv).text.hasSuffix("input-sha256=" + Hex.encode(Crypto.hash(.sha256, input))))
    }

    /// An attribute that sets passwords is warned about, and refused with --generate-passwords
    /// (issue 34 item 7: users can often edit description).
    func testAMappedPasswordIsWarnedAboutAndRefusedWithGeneratedPasswords() throws {
        var configuration = try configuration(map: "uid=username,description=password")
        configuration.generatePasswords = false
        let sheet = try BatchSheet(input: Array("dn: uid=a\nuid: a\ndescription: pw\n\n".utf8), name: "-",
                                   configuration: configuration, baseDirectory: "/")
        XCTAssertTrue(sheet.notes.first?.hasPrefix("warning: --map takes passwords from description: if the directory lets its users edit") ?? false,
                      "\(sheet.notes)")
        XCTAssertNoThrow(try configuration.directoryMap?.check(generatePasswords: false))
        XCTAssertThrowsError(try configuration.directoryMap?.check(generatePasswords: true)) {
            XCTAssertEqual(($0 as? BatchError)?.description, "--map description=password and --generate-passwords cannot be used together: "
                           + "take the passwords from the directory or generate them, not both")
        }
        XCTAssertNil(try DirectoryMap(DirectoryMap.inetOrgPerson).passwordWarning)
    }

    /// An export cut short, or one with no entries at all (ldapsearch against a dead server
    /// prints nothing), is refused: sync would take the missing people for leavers (issue 34).
    func testACutOrEmptyExportIsRefused() throws {
        let whole = "dn: uid=s4,ou=p\nuid: s4\n\ndn: uid=s57,ou=p\nuid: s57\n\n"
        XCTAssertEqual(try BatchSheet(input: Array(whole.utf8), name: "-", configuration: configuration(), baseDirectory: "/").rows.count, 2)
        for (text, message) in [
            ("dn: uid=s4,ou=p\nuid: s4\n\ndn: uid=s57,ou=p\nuid: s5", "-: line 5: the LDIF ends inside this line (no line end after it)"),
            ("dn: uid=s4,ou=p\nuid: s4\n\ndn: uid=s57,ou=p\nuid: s57\n", "-: line 4: the LDIF ends inside the entry of this line"),
            ("", "-: no records (an empty export?); nothing was planned"),
            ("# search result\n# numEntries: 0\n", "-: no records (an empty export?); nothing was planned"),
        ] {
            XCTAssertThrowsError(try BatchSheet(input: Array(text.utf8), name: "-", configuration: configuration(), baseDirectory: "/"), text) {
                XCTAssertTrue(($0 as? BatchError)?.description.hasPrefix(message) ?? false, "\($0)")
            }
        }
        var csv = try configuration()
        csv.directoryMap = nil
        XCTAssertThrowsError(try BatchSheet(input: Array("username,fullname\n".utf8), name: "a.csv", configuration: csv, baseDirectory: "/")) {
            XCTAssertEqual(($0 as? BatchError)?.description, "a.csv: no records (an empty export?); nothing was planned")
        }
    }
}

/// The two sources of an avatar name the same image alike where it matters: bytes and digest.
final class AvatarSourceTests: XCTestCase {
    func testKeysAndBytes() throws {
        let path = NSTemporaryDirectory() + "xt-avatar-source-" + UUID().uuidString
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(AvatarSource.file(path).key, "file:" + path)
        XCTAssertEqual(AvatarSource.image([1, 2, 3]).key, "sha256:" + Hex.encode(Crypto.hash(.sha256, [1, 2, 3])))
        XCTAssertEqual(AvatarSource.file(path).bytes(), [1, 2, 3])
        XCTAssertEqual(AvatarSource.image([1, 2, 3]).bytes(), [1, 2, 3])
        XCTAssertNil(AvatarSource.file(path + "-missing").bytes())
        XCTAssertNil(AvatarSource.file(path).bytes(maxBytes: 2))
    }
}
