import Foundation
import XCTest
import ShellTestSupport
import TextFormats
import XMPPStorage
@testable import XMPPBatch

/// Every writer of a byte-level format, fed each of that format's special characters followed by
/// each mark that Swift glues onto the character before it (issue 34): what the format's own
/// reader reads back is what was meant, and nothing runs. A check made on `Character`s sees
/// `'` + U+0301 as one character that is not `'`; these formats see the quote.
final class ByteLevelWritersSweepTests: XCTestCase {
    /// Combining marks, joiners, variation selectors, a keycap, a tag character and the
    /// replacement of a lone surrogate: each makes one grapheme cluster with the character before.
    static let marks: [String] = ["\u{301}", "\u{308}", "\u{34F}", "\u{200D}", "\u{FE0F}", "\u{20E3}", "\u{E0041}", "\u{FFFD}"]

    private func sheet(_ csv: String) throws -> BatchSheet {
        var configuration = BatchConfiguration()
        configuration.domain = "school.example"
        configuration.generatePasswords = true
        return try BatchSheet(input: Array(csv.utf8), name: "s.csv", configuration: configuration, baseDirectory: "/")
    }

    /// One CSV record, quoted but not neutralised (an input, not a report).
    private func row(_ fields: [String]) -> String { fields.map(CSVWriter.quote).joined(separator: ",") + "\n" }

    /// A CSV with two accounts in each group of `names`, each seeing exactly its own group.
    private func csv(groups names: [String], fullname: (Int) -> String = { "Pupil \($0)" }) -> String {
        var out = row(["username", "fullname", "groups", "contacts"])
        for (g, name) in names.enumerated() {
            let cell = SemicolonList.escape(name)
            for k in 0..<2 { out += row(["u\(g)x\(k)", fullname(g), cell, cell]) }
        }
        return out
    }

    // MARK: - POSIX shell (the ejabberd script)

    func testTheEjabberdScriptKeepsEveryGroupNameOneWordWhateverMarkFollowsAQuote() throws {
        let specials = ["'", "\"", "\\", "$", "`", ";", "|", "&", "-"]
        var names: [String] = []
        for special in specials {
            for mark in Self.marks {
                names.append("x\(special)\(mark)$(touch pwned)\(special)\(mark)`touch pwned`;touch pwned\(special)")
            }
        }
        let groups = try SharedGroups(sheet: try sheet(csv(groups: names)), kind: .ejabberd)
        let script = groups.ejabberdScript(source: "s.csv")
        // Read as sh reads a line of plain words: each srg_create line's label is the name.
        var labels: [String] = []
        for line in script.split(separator: "\n") where line.hasPrefix("$EJABBERDCTL srg_create ") {
            let words = try XCTUnwrap(ShellWord.words(String(line.dropFirst("$EJABBERDCTL ".count))), "not plain words: \(line)")
            XCTAssertEqual(words.count, 6, String(line))
            labels.append(words[3])
        }
        XCTAssertEqual(Set(labels), Set(names))
        // And as sh runs it, with a stand-in for ejabberdctl that records its arguments.
        let directory = try scratchDirectory("sweep-sh")
        try script.write(toFile: directory + "/groups.sh", atomically: true, encoding: .utf8)
        let record = directory + "/record.sh"
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\036' \"$a\"; done >>\"$RECORD\"; printf '\\035' >>\"$RECORD\"\n"
            .write(toFile: record, atomically: true, encoding: .utf8)
        let run = try Shell.run("/bin/sh", [directory + "/groups.sh"], in: URL(fileURLWithPath: directory),
                                environment: ["EJABBERDCTL": "/bin/sh " + record, "RECORD": directory + "/calls", "JOBS": "1"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/pwned"), "text of the CSV ran as shell code")
        let calls = try String(contentsOfFile: directory + "/calls", encoding: .utf8)
            .split(separator: "\u{1D}").map { $0.split(separator: "\u{1E}", omittingEmptySubsequences: false).dropLast().map(String.init) }
        let created = calls.filter { $0.first == "srg_create" }
        XCTAssertEqual(created.count, 2 * names.count, "every group made, then given what it displays")
        XCTAssertEqual(Set(created.map { $0[3] }), Set(names))
        XCTAssertEqual(calls.filter { $0.first == "srg_user_add" }.count, 2 * names.count, "every member added")
    }

    func testShellWordQuotesOnBytes() {
        for mark in Self.marks {
            let text = "a'\(mark)b"
            let quoted = ShellWord.quoted(text)
            XCTAssertEqual(quoted, "'a'\\''\(mark)b'")
            XCTAssertEqual(ShellWord.words(quoted ?? ""), [text])
        }
        XCTAssertNil(ShellWord.quoted("a\u{0}b"), "no shell word holds a NUL")
        XCTAssertNil(ShellWord.words("'a'\u{301}$(id)"), "an unquoted $ is not a plain word")
    }

    // MARK: - Prosody's groups file

    /// What mod_groups reads from `file`: the real module's own loop, run by Lua with its
    /// requires stubbed (jid_prep as the identity: the JIDs written are prepared already).
    private func modGroupsRead(_ file: String) throws -> [ProsodyGroupsFile.Group] {
        let lua = try ["lua5.4", "lua5.3", "lua5.2", "lua"].lazy.compactMap { try? Shell.require($0) }.first ?? Shell.require("lua5.4")
        let candidates = ["/var/cache/xmpp-tools/prosody13/usr/lib/prosody/modules/mod_groups.lua", "/usr/lib/prosody/modules/mod_groups.lua"]
        guard let module = candidates.first(where: FileManager.default.fileExists) else { try Shell.missing("Prosody's mod_groups.lua") }
        let directory = try scratchDirectory("modgroups")
        try file.write(toFile: directory + "/groups.txt", atomically: true, encoding: .utf8)
        try Self.harness.write(toFile: directory + "/read.lua", atomically: true, encoding: .utf8)
        let run = try Shell.run(lua, [directory + "/read.lua", module, directory + "/groups.txt"])
        XCTAssertEqual(run.status, 0, run.stderr)
        func text(_ hex: Substring) -> String {
            var bytes: [UInt8] = []
            var i = hex.startIndex
            while i < hex.endIndex, let next = hex.index(i, offsetBy: 2, limitedBy: hex.endIndex), let b = UInt8(hex[i..<next], radix: 16) {
                bytes.append(b)
                i = next
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var groups: [ProsodyGroupsFile.Group] = []
        for line in run.stdout.split(separator: "\n") {
            let f = line.split(separator: " ", omittingEmptySubsequences: false)
            if f.first == "G" { groups.append(.init(name: text(f[1]), members: [], isPublic: f[2] == "1")) }
            if f.first == "M" {
                let name = text(f[2])
                groups[groups.count - 1].members.append(.init(jid: text(f[1]), name: name.isEmpty ? nil : name))
            }
        }
        return groups
    }

    /// Loads mod_groups as Prosody would, then prints its `groups` (sorted, hex) and which are public.
    static let harness = #"""
        local modfile, groupsfile = arg[1], arg[2]
        local function stub(t) return function() return t end end
        local dm = { add_callback = function() end }
        local jid = { prep = function(s) if s == nil or s == "" then return nil end return s end }
        for _, p in ipairs({ "", "prosody." }) do
          package.preload[p .. "util.datamanager"] = stub(dm)
          package.preload[p .. "util.jid"] = stub(jid)
        end
        module = { get_host = function() return "localhost" end, get_option_path = function() return groupsfile end,
                   hook = function() end, log = function() end }
        assert(loadfile(modfile))()
        module.load()
        local groups, members
        local i = 1
        while true do
          local name, value = debug.getupvalue(module.load, i)
          if not name then break end
          if name == "groups" then groups = value elseif name == "members" then members = value end
          i = i + 1
        end
        local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
        local public = {}
        for _, g in ipairs(members[false] or {}) do public[g] = true end
        local names = {}
        for g in pairs(groups) do names[#names + 1] = g end
        table.sort(names)
        for _, g in ipairs(names) do
          if g ~= "default" or next(groups[g]) then
            io.write("G ", hex(g), " ", public[g] and "1" or "0", "\n")
            local jids = {}
            for j in pairs(groups[g]) do jids[#jids + 1] = j end
            table.sort(jids)
            for _, j in ipairs(jids) do io.write("M ", hex(j), " ", hex(groups[g][j] or ""), "\n") end
          end
        end
        """#

    private func normalized(_ groups: [ProsodyGroupsFile.Group]) -> [ProsodyGroupsFile.Group] {
        groups.map { g in
            var g = g
            g.members = g.members.map { .init(jid: $0.jid, name: ($0.name?.isEmpty ?? true) ? nil : $0.name) }.sorted { $0.jid.utf8.lexicographicallyPrecedes($1.jid.utf8) }
            return g
        }.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    func testTheGroupsFileReadsBackAsMeantOrIsRefused() throws {
        var names: [String] = []
        var refused: [String] = []
        for special in ["[", "]", "+", "="] {
            for mark in Self.marks {
                let glued = special + mark
                for name in ["x" + glued + "Everyone", glued + "x", "x" + glued, glued + "Everyone"] {
                    if name.utf8.first == UInt8(ascii: "+") { refused.append(name) } else { names.append(name) }
                }
            }
        }
        let fullname = { (g: Int) in ["Zed]", "[Zed", "a=b", "+x", "=" + Self.marks[g % Self.marks.count]][g % 5] }
        let groups = try SharedGroups(sheet: try sheet(csv(groups: names, fullname: fullname)), kind: .prosody)
        let file = groups.prosodyFile()
        var meant: [ProsodyGroupsFile.Group] = []
        for (g, name) in names.enumerated() {
            meant.append(.init(name: name, members: (0..<2).map { .init(jid: "u\(g)x\($0)@school.example", name: fullname(g)) }))
        }
        XCTAssertEqual(normalized(ProsodyGroupsFile.read(Array(file.utf8))), normalized(meant), "the reader of this module")
        XCTAssertEqual(normalized(try modGroupsRead(file)), normalized(meant), "Prosody's own mod_groups")
        for name in refused {
            XCTAssertThrowsError(try SharedGroups(sheet: try sheet(csv(groups: [name])), kind: .prosody)) { error in
                XCTAssertTrue("\(error)".contains("starts with '+'"), "\(error)")
            }
        }
        // A member whose JID starts with '[' or holds '=', whatever follows it: refused as a line
        // of the file, where the JID itself is valid (some marks cannot start or follow in one).
        var refusedAsLines = 0
        for mark in Self.marks {
            for username in ["[" + mark + "zz", "a=" + mark + "b", "[zz" + mark, "a" + mark + "="] {
                let text = row(["username", "fullname", "groups", "contacts"]) + row([username, "Zed]", "G", "G"]) + row(["b", "B", "G", "G"])
                XCTAssertThrowsError(try SharedGroups(sheet: try sheet(text), kind: .prosody), username.debugDescription) { error in
                    if "\(error)".contains("cannot be a line of Prosody's groups file") { refusedAsLines += 1 } else {
                        XCTAssertEqual(error as? SharedGroupsError, .invalidRows([2]), "\(error)")
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(refusedAsLines, 8, "the valid JIDs among these are refused by the file's checks")
    }

    /// The module's reader agrees with mod_groups on files no writer of ours would make.
    func testTheGroupsFileReaderAgreesWithModGroupsOnHostileFiles() throws {
        let file = "a@x=before\n  [ +Pub ]  \nb@x\n[G]\n[\u{301}zz@x=Zed]\nc@x = C = D\n  d@x e@x=E\n\n[]\n[a]b]\ne@x=\r\n[+\u{301}P]\nf@x\n"
        XCTAssertEqual(normalized(ProsodyGroupsFile.read(Array(file.utf8))), normalized(try modGroupsRead(file)))
    }

    // MARK: - CSV (the report)

    /// Python's csv module reads the report's fields back as meant, but for the documented
    /// changes: a formula's leading apostrophe (`CSVWriter.restored` takes it off) and controls,
    /// bidirectional controls and line separators as visible escapes.
    func testTheReportCSVReadsBackInPythonAsMeant() throws {
        let python = try Shell.require("python3")
        var fields: [String] = []
        for special in [",", "\"", "=", "+", "-", "@", "'", "\n", "\r", "\u{9B}", "\u{202E}", "\u{2028}", "\u{85}", "\u{2067}"] {
            for mark in Self.marks { fields += [special + mark + "x", "x" + special + mark, special + mark] }
        }
        // Rows of 24 fields (CSVReader's limit is 64 a record).
        let rows = stride(from: 0, to: fields.count, by: 24).map { Array(fields[$0..<min($0 + 24, fields.count)]) }
        let written = rows.map(BatchReport.record).joined()
        for scalar in written.unicodeScalars where scalar.value >= 0x80 {
            XCTAssertFalse(TerminalText.needsEscape(scalar), "\(scalar.codePointLabel) written raw")
        }
        let run = try Shell.run(python, ["-c", "import csv,sys,json; print(json.dumps([f for r in csv.reader(sys.stdin) for f in r]))"], stdin: written)
        XCTAssertEqual(run.status, 0, run.stderr)
        let read = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String])
        XCTAssertEqual(read.map(CSVWriter.restored), fields.map { TerminalText.escaped($0) })
        XCTAssertEqual(try CSVReader.parse(Array(written.utf8)).flatMap(\.fields).map(CSVWriter.restored), fields.map { TerminalText.escaped($0) })
        // Formulas are recognised by their first scalar, whatever is glued to it.
        for start in ["=", "+", "-", "@"] {
            for mark in Self.marks { XCTAssertTrue(read.contains("'" + start + mark + "x"), start + mark) }
        }
    }

    // MARK: - Terminal, file names, semicolon lists, LDIF

    func testTerminalEscapesHoldWithMarksAfterEachControl() {
        for control in ["\u{1B}", "\u{9B}", "\u{202E}", "\u{2066}", "\n", "\r", "\u{7F}", "\u{2028}"] {
            for mark in Self.marks {
                let shown = TerminalText.escaped("a" + control + mark + "b")
                XCTAssertFalse(shown.unicodeScalars.contains(where: TerminalText.needsEscape), shown.debugDescription)
            }
        }
    }

    func testGroupReportFileNamesStayInTheirDirectory() {
        var groups: Set<String> = []
        for special in ["/", ".", "%", "-", "\\", "'", "$"] {
            for mark in Self.marks { groups.formUnion([special + mark, special + mark + special + mark + "x", ".." + mark]) }
        }
        var owner: [String: String] = [:]
        for group in groups {
            let name = GroupReports.fileName(group: group)
            XCTAssertFalse(name.utf8.contains(UInt8(ascii: "/")), name)
            XCTAssertTrue(name.hasPrefix("group-") && name.hasSuffix(".csv"), name)
            if let other = owner.updateValue(group, forKey: name) { XCTFail("\(group.debugDescription) and \(other.debugDescription) share \(name)") }
        }
    }

    /// File paths split as the kernel splits them: a secret's directory is the one the kernel
    /// puts it in, whatever mark follows a `/` or starts a name after `.`.
    func testFilePathsSplitOnTheSeparatorByte() {
        for mark in Self.marks {
            XCTAssertEqual(PathText.directory(of: "/srv/reports/" + mark + "r.csv"), "/srv/reports")
            XCTAssertEqual(BatchReport.directory(of: "/srv/a/" + mark + "b/r.csv"), "/srv/a/" + mark + "b")
            XCTAssertEqual(PathText.lastComponent("/usr/bin/" + mark + "x"), mark + "x")
            XCTAssertEqual(PathText.components("a/" + mark + "b//c"), ["a", mark + "b", "c"])
            XCTAssertTrue(PathText.isAbsolute("/" + mark + "etc"))
            XCTAssertTrue(PathText.isHidden("." + mark + "hidden"))
            XCTAssertTrue(PathText.containsSeparator("example.org/" + mark))
            XCTAssertFalse(SyncState.isDomain("." + mark + "x.org"))
        }
    }

    func testSemicolonListsSplitOnTheSeparatorByte() {
        for mark in Self.marks {
            XCTAssertEqual(SemicolonList.split("A;" + mark + "B"), ["A", mark + "B"], "a mark after ';' does not hide it")
            XCTAssertEqual(SemicolonList.split("A\\" + ";" + mark + "B"), ["A;" + mark + "B"])
            for item in ["a;" + mark, "\\" + mark, "x\\;" + mark + ";"] {
                XCTAssertEqual(SemicolonList.split(SemicolonList.escape(item)), [item])
            }
        }
    }

    /// A group name given base 64 in an LDIF export (`ou::`), as a directory writes non-ASCII
    /// values, arrives byte for byte.
    func testLDIFValuesArriveByteForByte() throws {
        for special in [":", "<", "'", "[", "+"] {
            for mark in Self.marks {
                let value = special + mark + "G"
                let ldif = "dn: uid=a,ou=p\nuid: a\nou:: " + Data(value.utf8).base64EncodedString() + "\n\n"
                let entry = try XCTUnwrap(try LDIFReader.parse(Array(ldif.utf8)).first)
                XCTAssertEqual(entry.values("ou"), [Array(value.utf8)])
            }
        }
    }
}
