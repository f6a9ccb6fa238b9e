/// The groups file of Prosody's mod_groups (`groups_file`), written so that mod_groups reads back
/// exactly the groups and members meant, and read the way mod_groups reads it.
///
/// mod_groups (0.12 and 13 alike) reads the file line by line with Lua patterns, which work on
/// bytes, `%s` being ASCII white space (space, `\t`, `\n`, `\v`, `\f`, `\r`):
/// - a line matching `^%s*%[.-%]%s*$` starts a group named by what lies between its first `[`
///   and its last `]`; a name starting with `+` is a *public* group (its members are in every
///   roster of the host) named without the `+`;
/// - any other line is a member: the JID is the first run of non-space bytes before the first
///   `=`, the display name everything after that `=`.
/// There is no quoting and no comment syntax, so text that would change how a line is read is
/// refused, never escaped. Every check is on the first byte or on bytes anywhere: a combining mark
/// after `+` or `[` glues the two into one Swift Character, and `hasPrefix("+")` would miss it.
public enum ProsodyGroupsFile {
    public struct Member: Sendable, Equatable {
        /// The member's bare JID, already prepared (mod_groups applies jid_prep to it).
        public var jid: String
        /// The display name; nil and empty read back alike, as empty.
        public var name: String?
        public init(jid: String, name: String?) {
            self.jid = jid
            self.name = name
        }
    }

    public struct Group: Sendable, Equatable {
        public var name: String
        public var members: [Member]
        /// A `+` group, shown to every account of the host (only the reader sets it).
        public var isPublic: Bool
        public init(name: String, members: [Member], isPublic: Bool = false) {
            self.name = name
            self.members = members
            self.isPublic = isPublic
        }
    }

    /// Text mod_groups would read as something other than what is meant.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case groupName(String, reason: String)
        case memberJID(String, reason: String)
        case memberName(String, reason: String)

        public var description: String {
            switch self {
            case .groupName(let name, let reason):
                return "the group '\(TerminalText.escaped(name))' cannot be a group of Prosody's groups file: \(reason)"
            case .memberJID(let jid, let reason):
                return "the JID \(TerminalText.escaped(jid)) cannot be a line of Prosody's groups file: \(reason)"
            case .memberName(let name, let reason):
                return "the name '\(TerminalText.escaped(name))' cannot be written in Prosody's groups file: \(reason)"
            }
        }
    }

    /// ASCII white space as Lua's `%s` (C's isspace in the C locale).
    static func isLuaSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// A byte no line of the file can hold as text: C0 controls (a line end among them) and DEL.
    static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    /// Why `name` cannot be a group's name, or nil.
    public static func refusal(groupName name: String) -> Refusal? {
        let bytes = Array(name.utf8)
        if bytes.first == UInt8(ascii: "+") {
            return .groupName(name, reason: "it starts with '+', which mod_groups reads as a group every account of the host sees")
        }
        if let bad = bytes.first(where: isControl) {
            return .groupName(name, reason: "it holds the control character \(Unicode.Scalar(bad).codePointLabel)")
        }
        // The scalars U+0085, U+2028 and U+2029 are not line ends to mod_groups, but are to
        // editors and to people reading the file: refused as the other writers refuse them.
        if name.unicodeScalars.contains(where: { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            return .groupName(name, reason: "it holds a line separator")
        }
        return nil
    }

    /// Why `jid` cannot be a member line's JID, or nil.
    public static func refusal(memberJID jid: String) -> Refusal? {
        let bytes = Array(jid.utf8)
        guard let first = bytes.first else { return .memberJID(jid, reason: "it is empty") }
        if first == UInt8(ascii: "[") { return .memberJID(jid, reason: "a line starting with '[' can start a group") }
        if bytes.contains(UInt8(ascii: "=")) { return .memberJID(jid, reason: "'=' ends the JID of a member line") }
        if bytes.contains(where: { isLuaSpace($0) || isControl($0) }) {
            return .memberJID(jid, reason: "white space or a control character ends the JID of a member line")
        }
        return nil
    }

    /// Why `name` cannot be a member's display name, or nil.
    public static func refusal(memberName name: String) -> Refusal? {
        if let bad = name.utf8.first(where: isControl) {
            return .memberName(name, reason: "it holds the control character \(Unicode.Scalar(bad).codePointLabel)")
        }
        if name.unicodeScalars.contains(where: { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            return .memberName(name, reason: "it holds a line separator")
        }
        return nil
    }

    /// The file for `groups`: each `[Name]` line followed by its members as `jid=Name` (or `jid`
    /// alone without a name), a blank line between groups. No comments: mod_groups has none, it
    /// would read `# …` as a member.
    public static func write(_ groups: [Group]) throws(Refusal) -> String {
        var out = ""
        for group in groups {
            if let refusal = refusal(groupName: group.name) { throw refusal }
            out += (out.isEmpty ? "" : "\n") + "[" + group.name + "]\n"
            for member in group.members {
                if let refusal = refusal(memberJID: member.jid) { throw refusal }
                if let name = member.name, let refusal = refusal(memberName: name) { throw refusal }
                out += member.jid + (member.name.map { "=" + $0 } ?? "") + "\n"
            }
        }
        return out
    }

    /// The groups as mod_groups reads `bytes`, in the order their headers first appear (members
    /// before the first header belong to the group `default`, as there). A member's JID is taken
    /// as written (mod_groups prepares it; the JIDs this writer is given are prepared already),
    /// and its name is nil when empty. Linear in the input.
    public static func read(_ bytes: [UInt8]) -> [Group] {
        var groups: [Group] = [Group(name: "default", members: [])]
        var index: [String: Int] = ["default": 0]
        var current = 0
        var lineStart = 0
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let line = bytes[lineStart..<end]
            lineStart = end + 1
            if let (name, isPublic) = header(line) {
                if let known = index[name] {
                    current = known
                    if isPublic { groups[known].isPublic = true }
                } else {
                    index[name] = groups.count
                    current = groups.count
                    groups.append(Group(name: name, members: [], isPublic: isPublic))
                }
                continue
            }
            let equals = line.firstIndex(of: UInt8(ascii: "="))
            let jidPart = line[line.startIndex..<(equals ?? line.endIndex)]
            guard let first = jidPart.firstIndex(where: { !isLuaSpace($0) }) else { continue }
            let last = jidPart[first...].firstIndex(where: isLuaSpace) ?? jidPart.endIndex
            let jid = String(decoding: jidPart[first..<last], as: UTF8.self)
            let name = equals.map { String(decoding: line[($0 + 1)...], as: UTF8.self) } ?? ""
            groups[current].members.append(Member(jid: jid, name: name.isEmpty ? nil : name))
        }
        if groups[0].members.isEmpty { groups.removeFirst() }
        return groups
    }

    /// `^%s*%[(.-)%]%s*$`: the name between the first `[` and the last `]`, then a leading `+`
    /// taken off as the public mark.
    private static func header(_ line: ArraySlice<UInt8>) -> (String, Bool)? {
        guard let open = line.firstIndex(where: { !isLuaSpace($0) }), line[open] == UInt8(ascii: "["),
              let close = line.lastIndex(where: { !isLuaSpace($0) }), close > open, line[close] == UInt8(ascii: "]")
        else { return nil }
        var name = line[(open + 1)..<close]
        let isPublic = name.first == UInt8(ascii: "+")
        if isPublic { name = name.dropFirst() }
        return (String(decoding: name, as: UTF8.self), isPublic)
    }
}
