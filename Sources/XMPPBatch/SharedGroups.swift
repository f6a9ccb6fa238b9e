import CryptoPrimitives
import TextFormats
import XMPPStanzas

/// The rosters of a batch's groups and contacts columns (`RosterPlan`: every pair mutual, each
/// contact filed under its own groups) as the server's shared roster groups, which the server
/// computes at every log-in instead of storing a roster item per pair:
///
/// - ejabberd's mod_shared_roster: a group's members see the members of the groups it
///   *displays*, under those groups' labels. Each CSV group becomes a group that displays every
///   group one of its members has a contact in, which is the CSV exactly when every member of a
///   group has the same contacts (a school's classes and teachers do).
/// - Prosody's mod_groups: every member of a group sees every other member, under that group's
///   name. Each CSV group whose members all see each other becomes one, with the rows that see
///   every member (when those see each other too) as extra members: teachers join each class.
///
/// Either way the result is checked against the CSV's pairs: a CSV the server's model cannot
/// express exactly (a pupil with a contact of his own, a group whose members differ) is refused
/// with the first pair that would differ, rather than giving people contacts the CSV did not.
public struct SharedGroups: Sendable {
    /// Which server's format.
    public enum Kind: String, Sendable, CaseIterable {
        case prosody, ejabberd
    }

    /// One shared group: its name (the CSV's), its members (row indices) and, for ejabberd, the
    /// groups it displays (indices into `groups`).
    struct Group: Sendable, Equatable {
        var name: String
        var members: [Int]
        var displays: [Int] = []
    }

    /// The batch's valid rows, in the CSV's order.
    let rows: [BatchRow]
    /// The domain of every row.
    public let domain: String
    /// The groups to write.
    let groups: [Group]
    /// The format.
    public let kind: Kind

    /// Maps `sheet`'s rows to `kind`'s model, refusing what it cannot express exactly.
    public init(sheet: BatchSheet, kind: Kind) throws(SharedGroupsError) {
        var rows: [BatchRow] = []
        for case .valid(let row) in sheet.rows { rows.append(row) }
        if !sheet.invalid.isEmpty {
            throw .invalidRows(sheet.invalid.map(\.line))
        }
        guard let first = rows.first else { throw .noGroups }
        let domain = first.jid.domain
        if let other = rows.first(where: { $0.jid.domain != domain }) {
            throw .domains(domain, other.jid.domain)
        }
        let plan = RosterPlan(rows: sheet.rows)
        var index: [String: Int] = [:]
        for (i, row) in rows.enumerated() { index[row.jid.description] = i }
        var adjacent = [Set<Int>](repeating: [], count: rows.count)
        for (i, row) in rows.enumerated() {
            for item in plan.contacts[row.line] ?? [] { if let j = index[item.jid.description] { adjacent[i].insert(j) } }
        }
        var order: [String] = []
        var members: [String: [Int]] = [:]
        for (i, row) in rows.enumerated() {
            for group in row.roster.groups {
                if members[group] == nil { order.append(group) }
                members[group, default: []].append(i)
            }
        }
        guard !order.isEmpty else { throw .noGroups }
        let built = kind == .ejabberd
            ? SharedGroups.ejabberdGroups(order: order, members: members, adjacent: adjacent)
            : SharedGroups.prosodyGroups(order: order, members: members, adjacent: adjacent)
        let seen = SharedGroups.visibility(built, kind: kind, count: rows.count)
        for i in rows.indices where seen[i] != adjacent[i] {
            let jid = { (k: Int) in rows[k].jid.description }
            if let extra = seen[i].subtracting(adjacent[i]).min() {
                throw .wouldAdd(jid(i), jid(extra))
            }
            if let missing = adjacent[i].subtracting(seen[i]).min() {
                throw .cannotShow(jid(i), jid(missing))
            }
        }
        self.rows = rows
        self.domain = domain
        self.groups = built
        self.kind = kind
        try checkText()
    }

    /// ejabberd: every CSV group, displaying each group that holds a contact of one of its members.
    static func ejabberdGroups(order: [String], members: [String: [Int]], adjacent: [Set<Int>]) -> [Group] {
        var groupsOf = [Set<Int>](repeating: [], count: adjacent.count)
        for (g, name) in order.enumerated() { for i in members[name] ?? [] { groupsOf[i].insert(g) } }
        return order.enumerated().map { g, name in
            let shown = (members[name] ?? []).reduce(into: Set<Int>()) { set, i in
                for j in adjacent[i] { set.formUnion(groupsOf[j]) }
            }
            return Group(name: name, members: members[name] ?? [], displays: shown.sorted())
        }
    }

    /// Prosody: each CSV group whose members all see each other, with the rows that see all of
    /// them, if those see each other too.
    static func prosodyGroups(order: [String], members: [String: [Int]], adjacent: [Set<Int>]) -> [Group] {
        func clique(_ set: [Int]) -> Bool {
            set.allSatisfy { a in set.allSatisfy { b in a == b || adjacent[a].contains(b) } }
        }
        var out: [Group] = []
        for name in order {
            let inside = members[name] ?? []
            guard clique(inside) else { continue }
            let set = Set(inside)
            let outsiders = adjacent.indices.filter { i in !set.contains(i) && inside.allSatisfy { adjacent[i].contains($0) } }
            out.append(Group(name: name, members: clique(outsiders) ? (inside + outsiders).sorted() : inside))
        }
        return out
    }

    /// Who sees whom once the server applies `groups`.
    static func visibility(_ groups: [Group], kind: Kind, count: Int) -> [Set<Int>] {
        var seen = [Set<Int>](repeating: [], count: count)
        for group in groups {
            let shown = kind == .ejabberd ? group.displays.flatMap { groups[$0].members } : group.members
            for i in group.members { seen[i].formUnion(shown) }
        }
        for i in 0..<count { seen[i].remove(i) }
        return seen
    }

    /// Text the target format cannot carry is refused here, never written: for Prosody, what
    /// mod_groups would read as another group or member (`ProsodyGroupsFile`'s checks, on bytes);
    /// for ejabberd, a NUL (no shell word holds one), a control character (it would end a line
    /// of the script's comments or arguments for a person reading it), and two names whose
    /// group identifiers would be one.
    private func checkText() throws(SharedGroupsError) {
        switch kind {
        case .prosody:
            do throws(ProsodyGroupsFile.Refusal) { _ = try ProsodyGroupsFile.write(fileGroups()) } catch {
                throw .text(error.description)
            }
        case .ejabberd:
            for group in groups {
                if let bad = group.name.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                    throw .text("the group '\(TerminalText.escaped(group.name))' holds the control character \(bad.codePointLabel)")
                }
            }
            if let clash = SharedGroups.collision(groups.map(\.name), id: SharedGroups.groupID) {
                throw .text("the groups '\(TerminalText.escaped(clash.first))' and '\(TerminalText.escaped(clash.second))' would both be "
                            + "ejabberd's group \(clash.id): rename one of them")
            }
        }
    }

    // MARK: - Writing

    /// The groups as `ProsodyGroupsFile` writes them: each member named by the row's fullname,
    /// or nickname.
    func fileGroups() -> [ProsodyGroupsFile.Group] {
        groups.map { group in
            ProsodyGroupsFile.Group(name: group.name, members: group.members.map { i in
                ProsodyGroupsFile.Member(jid: rows[i].jid.description, name: rows[i].profile.fullname ?? rows[i].profile.nickname)
            })
        }
    }

    /// The groups file for Prosody's mod_groups: `[Group]` lines, each followed by its members as
    /// `jid=Name`. Its text was checked when the groups were made (`checkText`).
    public func prosodyFile() -> String {
        (try? ProsodyGroupsFile.write(fileGroups())) ?? ""
    }

    /// A POSIX shell script of ejabberdctl commands for mod_shared_roster: srg_create for each
    /// group (its label the CSV's name), again with the groups it displays (those its members
    /// see) once all exist, then srg_user_add for each member, `JOBS` (4) calls at a time through
    /// `xargs -0 -P`: each ejabberdctl call starts an Erlang VM, most of the script's time. Every
    /// argument is single-quoted, and reaches xargs NUL-separated.
    public func ejabberdScript(source: String) -> String {
        let ids = groups.map { SharedGroups.groupID($0.name) }
        var out = "#!/bin/sh\n"
        out += "# ejabberd mod_shared_roster groups for \(SharedGroups.oneLine(domain)), written by xmpp-register shared-groups\n"
        out += "# from \(SharedGroups.oneLine(source)): \(SharedGroups.count(groups.count, "group")), \(SharedGroups.count(rows.count, "account")).\n"
        out += "# Run it where ejabberdctl works (EJABBERDCTL names another command, word-split).\n"
        out += "set -e\n: \"${EJABBERDCTL:=ejabberdctl}\"\n"
        // ejabberd 24.12 refuses a displayed group that does not exist yet (wrong_displayed_groups):
        // every group is made first, then given its displayed groups (srg_create again keeps members).
        for pass in 0..<2 {
            for (g, group) in groups.enumerated() where pass == 0 || !group.displays.isEmpty {
                let shown = pass == 0 ? "" : group.displays.map { ids[$0] }.joined(separator: ",")
                out += "$EJABBERDCTL srg_create " + [ids[g], domain, group.name, SharedGroups.marker, shown]
                    .map(SharedGroups.shellWord).joined(separator: " ") + "\n"
            }
        }
        var members: [String] = []
        for (g, group) in groups.enumerated() {
            for i in group.members {
                members.append("  " + [rows[i].jid.local ?? "", domain, ids[g], domain].map(SharedGroups.shellWord)
                    .joined(separator: " ") + " \\\n")
            }
        }
        guard !members.isEmpty else { return out }
        out += "export EJABBERDCTL\nprintf '%s\\0' \\\n" + members.joined()
        out += "  | xargs -0 -n 4 -P \"${JOBS:-4}\" sh -c 'exec $EJABBERDCTL srg_user_add \"$@\"' sh\n"
        return out
    }

    /// `name` as an ejabberd group identifier: its ASCII letters and digits (lowercased, others
    /// as '-', 32 at most) and 20 hex digits (80 bits) of its SHA-256, so that making a name
    /// share another's identifier (and so its members) takes about 2^80 hashes, and the display
    /// list (comma-separated) and the shell see only [a-z0-9-]. Identifiers that collide anyway
    /// are refused (`checkText`).
    static func groupID(_ name: String) -> String {
        var slug = ""
        for scalar in name.lowercased().unicodeScalars where slug.unicodeScalars.count < 32 {
            let plain = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
            if plain { slug.unicodeScalars.append(scalar) } else if !slug.isEmpty && slug.utf8.last != UInt8(ascii: "-") { slug += "-" }
        }
        while slug.utf8.last == UInt8(ascii: "-") { slug.unicodeScalars.removeLast() }
        let hash = String(Hex.encode(Crypto.hash(.sha256, Array(name.utf8))).prefix(idHashDigits))
        return (slug.isEmpty ? "group" : slug) + "-" + hash
    }

    /// The first two different names in `names` that `id` maps to one identifier, or nil.
    static func collision(_ names: [String], id: (String) -> String) -> (first: String, second: String, id: String)? {
        var owners: [String: String] = [:]
        for name in names {
            let key = id(name)
            if let other = owners.updateValue(name, forKey: key), other != name { return (other, name, key) }
        }
        return nil
    }

    /// Hex digits of SHA-256 in a group identifier.
    static let idHashDigits = 20

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)" + (n == 1 ? "" : "s") }

    /// A POSIX shell word for `text` (`ShellWord`, on bytes); a NUL, which `checkText` and the
    /// CSV's checks refuse before, as the empty word.
    static func shellWord(_ text: String) -> String { ShellWord.quoted(text) ?? "''" }

    /// `text` on one line: control characters (the CSV's checks allow none in names, but a
    /// line break would start a line of its own in either format) as spaces.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{85}" ? " " : $0 }))
    }
}

/// Why a CSV's rosters cannot become the server's shared groups.
public enum SharedGroupsError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidRows([Int])
    case noGroups
    case domains(String, String)
    /// The server would show the second account to the first, though the CSV does not pair them.
    case wouldAdd(String, String)
    /// The CSV pairs them, but no shared group can show it.
    case cannotShow(String, String)
    case text(String)

    public var description: String {
        switch self {
        case .invalidRows(let lines):
            return "invalid rows (line " + lines.prefix(5).map(String.init).joined(separator: ", ") + (lines.count > 5 ? ", …" : "")
                + "): shared groups are made from a CSV whose every row is valid (see xmpp-register batch FILE --dry-run)"
        case .noGroups: return "no row has a group: the groups column names the shared groups"
        case .domains(let a, let b): return "the rows are on two domains (\(a), \(b)): shared groups are made for one domain at a time"
        case .wouldAdd(let a, let b):
            return "\(a) would see \(b) through the shared groups though the CSV does not pair them: the server's groups give "
                + "every member of a group the same contacts; keep the per-account rosters (xmpp-register batch without --shared-groups)"
        case .cannotShow(let a, let b):
            return "the CSV pairs \(a) with \(b), but no shared group can show it (a contact of one row alone, or a row "
                + "in no group); keep the per-account rosters (xmpp-register batch without --shared-groups)"
        case .text(let message): return message
        }
    }
}

