import FuzzSupport
import TextFormats

/// Fuzz target for the writers of the two server formats `xmpp-register shared-groups` prints:
/// `ShellWord` (every argument of the ejabberd script) and `ProsodyGroupsFile` (mod_groups'
/// groups file), whose text comes from a CSV or a directory that people can edit.
///
/// The input is cut at 0x00 bytes into fields (arbitrary bytes, decoded as UTF-8 with
/// replacement): group names, then member JIDs and names in turn, the first byte choosing how
/// many members each group gets. Invariants: every field without NUL quotes to one shell word
/// that `ShellWord.words` reads back as itself; the groups file either is refused, by a check
/// that names a field that really starts with `+` or `[`, holds `=`, white space or a control
/// (on bytes), or reads back (`ProsodyGroupsFile.read`, which mirrors mod_groups' Lua patterns)
/// as exactly the groups and members written; the bytes read as a groups file never crash.
enum FuzzGroupsFileTarget: FuzzTarget {
    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard let selector = data.first else { return }
        let bytes = Array(data.dropFirst())
        _ = ProsodyGroupsFile.read(bytes)
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        for field in fields {
            let quoted = ShellWord.quoted(field)
            FuzzReplay.invariant(quoted != nil, "\(field.debugDescription) has no NUL yet is not quoted")
            let words = ShellWord.words(quoted ?? "")
            FuzzReplay.invariant(words == [field], "\(field.debugDescription) quoted as \(String(describing: quoted)) reads back as \(String(describing: words))")
        }
        let perGroup = 1 + Int(selector & 0x03)
        var groups: [ProsodyGroupsFile.Group] = []
        var rest = fields[...]
        while let name = rest.popFirst() {
            var members: [ProsodyGroupsFile.Member] = []
            for _ in 0..<perGroup {
                guard let jid = rest.popFirst() else { break }
                let display = rest.popFirst()
                members.append(.init(jid: jid, name: (display?.isEmpty ?? true) ? nil : display))
            }
            // mod_groups keeps one entry per JID in a group, and merges groups of one name.
            var seen: Set<String> = []
            members = members.filter { seen.insert($0.jid).inserted }
            if groups.contains(where: { $0.name == name }) || name == "default" { continue }
            groups.append(.init(name: name, members: members))
        }
        let file: String
        do throws(ProsodyGroupsFile.Refusal) { file = try ProsodyGroupsFile.write(groups) } catch {
            FuzzReplay.invariant(justified(error), "refused without cause: \(error)")
            return
        }
        let read = ProsodyGroupsFile.read(Array(file.utf8))
        FuzzReplay.invariant(read == groups,
                             "\(groups) written as \(file.debugDescription) reads back as \(read)")
    }

    /// Whether a refusal names text that would really change how mod_groups reads the file.
    static func justified(_ refusal: ProsodyGroupsFile.Refusal) -> Bool {
        let control = { (b: UInt8) in b < 0x20 || b == 0x7F }
        let separator = { (s: String) in s.unicodeScalars.contains { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" } }
        switch refusal {
        case .groupName(let name, _):
            return name.utf8.first == UInt8(ascii: "+") || name.utf8.contains(where: control) || separator(name)
        case .memberJID(let jid, _):
            return jid.isEmpty || jid.utf8.first == UInt8(ascii: "[") || jid.utf8.contains(UInt8(ascii: "="))
                || jid.utf8.contains { $0 == 0x20 || control($0) }
        case .memberName(let name, _):
            return name.utf8.contains(where: control) || separator(name)
        }
    }
}
