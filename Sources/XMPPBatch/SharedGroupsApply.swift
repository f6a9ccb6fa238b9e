import ServerAdmin
import TextFormats
import XMPPStorage

/// Keeps a server's shared roster groups in step with a CSV (`SharedGroups`) through the
/// server's own admin interface, sending only what differs: a new pupil is one member added, a
/// move one removed and one added, a leaver one removed.
///
/// - ejabberd: mod_http_api's srg_* commands. Only groups this tool made (their description is
///   `SharedGroups.marker`) are changed or deleted; ejabberd pushes each change to the members
///   who are online.
/// - Prosody: the groups file is rewritten atomically when its text changes, and mod_groups
///   reloaded through the admin shell; sessions stay connected, and each account sees the new
///   groups at its next log-in (mod_groups builds rosters when they are loaded).
public enum SharedGroupsApply {
    /// One change, as the plan names it.
    public enum Step: Sendable, Equatable, CustomStringConvertible {
        case createGroup(id: String, label: String)
        /// `displays`: identifiers; `shown`: their labels, for the plan.
        case updateGroup(id: String, label: String, displays: [String], shown: [String])
        case addMember(jid: String, group: String, label: String)
        case removeMember(jid: String, group: String, label: String)
        case deleteGroup(id: String, label: String)
        case writeFile(path: String)
        case reloadGroups(host: String)

        public var description: String {
            func shown(_ text: String) -> String { "'" + TerminalText.escaped(text) + "'" }
            switch self {
            case .createGroup(_, let label): return "make group " + shown(label)
            case .updateGroup(_, let label, _, let labels):
                return "set group " + shown(label) + " to show " + (labels.isEmpty ? "no group" : labels.map(shown).joined(separator: ", "))
            case .addMember(let jid, _, let label): return "add " + TerminalText.escaped(jid) + " to " + shown(label)
            case .removeMember(let jid, _, let label): return "remove " + TerminalText.escaped(jid) + " from " + shown(label)
            case .deleteGroup(_, let label): return "delete group " + shown(label)
            case .writeFile(let path): return "write " + TerminalText.escaped(path)
            case .reloadGroups(let host): return "reload mod_groups on " + TerminalText.escaped(host)
            }
        }
    }

    /// ejabberd: the steps that turn `current` (every group of the host) into `wanted`. Groups
    /// are made first without displayed groups (ejabberd refuses a display of a group that does
    /// not exist yet), then given them; members removed before others are added; groups of ours
    /// no longer wanted (and those an older version named differently) deleted last.
    public static func ejabberdSteps(wanted: [EjabberdAPI.SharedGroup], current: [EjabberdAPI.SharedGroup]) -> [Step] {
        let existing = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var labels = Dictionary(current.map { ($0.id, $0.label) }, uniquingKeysWith: { a, _ in a })
        for group in wanted { labels[group.id] = group.label }
        var steps: [Step] = []
        for group in wanted where existing[group.id] == nil { steps.append(.createGroup(id: group.id, label: group.label)) }
        for group in wanted {
            let now = existing[group.id]
            let fresh = now == nil
            if fresh ? !group.displays.isEmpty : (now?.label != group.label || now?.description != group.description
                                                 || Set(now?.displays ?? []) != Set(group.displays)) {
                steps.append(.updateGroup(id: group.id, label: group.label, displays: group.displays,
                                          shown: group.displays.map { labels[$0] ?? $0 }))
            }
        }
        for group in wanted {
            let members = existing[group.id]?.members ?? []
            for jid in members.subtracting(group.members).sorted() { steps.append(.removeMember(jid: jid, group: group.id, label: group.label)) }
        }
        for group in wanted {
            let members = existing[group.id]?.members ?? []
            for jid in group.members.subtracting(members).sorted() { steps.append(.addMember(jid: jid, group: group.id, label: group.label)) }
        }
        let wantedIDs = Set(wanted.map(\.id))
        for group in current where group.description == SharedGroups.marker && !wantedIDs.contains(group.id) {
            steps.append(.deleteGroup(id: group.id, label: group.label))
        }
        return steps
    }

    /// The host's groups as the API (or ejabberdctl) reports them.
    public static func ejabberdCurrent(_ api: any SharedRosterAdmin, host: String) throws(AdminError) -> [EjabberdAPI.SharedGroup] {
        var groups: [EjabberdAPI.SharedGroup] = []
        for id in try api.sharedGroupIDs(host: host) { groups.append(try api.sharedGroup(id: id, host: host)) }
        return groups
    }

    /// Carries out `steps` through `api` (the HTTP API or ejabberdctl); `done` is called after each.
    public static func apply(_ steps: [Step], wanted: [EjabberdAPI.SharedGroup], api: any SharedRosterAdmin, host: String,
                             done: (Step) -> Void = { _ in }) throws(AdminError) {
        let byID = Dictionary(wanted.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for step in steps {
            switch step {
            case .createGroup(let id, let label):
                try api.createSharedGroup(.init(id: id, label: label, description: SharedGroups.marker, displays: [], members: []), host: host)
            case .updateGroup(let id, let label, let displays, _):
                try api.createSharedGroup(.init(id: id, label: label, description: SharedGroups.marker, displays: displays,
                                                members: byID[id]?.members ?? []), host: host)
            case .addMember(let jid, let group, _), .removeMember(let jid, let group, _):
                let (user, userHost) = split(jid)
                var remove = false
                if case .removeMember = step { remove = true }
                try api.setMember(user: user, userHost: userHost, group: group, host: host, remove: remove)
            case .deleteGroup(let id, _):
                try api.deleteSharedGroup(id: id, host: host)
            case .writeFile, .reloadGroups:
                continue
            }
            done(step)
        }
    }

    /// Prosody: the membership changes between the groups file as it is (`existing`, nil: no
    /// file yet) and `wanted` (the same diff as ejabberd's: the file is wholly the tool's, so a
    /// group it no longer has is deleted), for the plan; then writing the file when its text
    /// differs, and reloading mod_groups then or when `reloadPending` (the file was written but
    /// no reload was seen to succeed: a run stopped between the two).
    public static func prosodySteps(wanted: [EjabberdAPI.SharedGroup], text: String, existing: [UInt8]?, path: String, host: String,
                                    reloadPending: Bool = false) -> [Step] {
        let current = prosodyGroups(existing.map(ProsodyGroupsFile.read) ?? [])
        var steps = ejabberdSteps(wanted: wanted, current: current)
        let differs = existing != Array(text.utf8)
        if differs { steps.append(.writeFile(path: path)) }
        if differs || reloadPending { steps.append(.reloadGroups(host: host)) }
        return steps
    }

    /// A groups file's groups in the shape the diff compares: each named by its name, all the
    /// tool's (mod_groups has no other owner of the file), displaying nothing.
    public static func prosodyGroups(_ groups: [ProsodyGroupsFile.Group]) -> [EjabberdAPI.SharedGroup] {
        groups.map { group in
            EjabberdAPI.SharedGroup(id: group.name, label: group.name, description: SharedGroups.marker, displays: [],
                                    members: Set(group.members.map(\.jid)))
        }
    }

    /// `user@host` as its two parts.
    static func split(_ jid: String) -> (String, String) {
        let bytes = Array(jid.utf8)
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return ("", jid) }
        return (String(decoding: bytes[..<at], as: UTF8.self), String(decoding: bytes[(at + 1)...], as: UTF8.self))
    }
}

extension SharedGroups {
    /// What an ejabberd group made by this tool carries as its description.
    public static let marker = "xmpp-register shared-groups"

    /// The groups as Prosody's groups file holds them, in the shape the diff compares.
    public var prosodyGroups: [EjabberdAPI.SharedGroup] {
        SharedGroupsApply.prosodyGroups(fileGroups())
    }

    /// The groups as ejabberd keeps them: identifier, label, the tool's marker, displayed groups,
    /// members as bare JIDs.
    public var ejabberdGroups: [EjabberdAPI.SharedGroup] {
        let ids = groups.map { SharedGroups.groupID($0.name) }
        return groups.enumerated().map { g, group in
            EjabberdAPI.SharedGroup(id: ids[g], label: group.name, description: SharedGroups.marker,
                                    displays: group.displays.map { ids[$0] }, members: Set(group.members.map { rows[$0].jid.description }))
        }
    }
}
