import CryptoPrimitives
import ServerAdmin
import TextFormats
import XMPPStorage

/// One domain's shared roster groups brought in step with a file: the groups the file wants,
/// the steps from what the server holds (`SharedGroupsApply`'s one diff), and their sending
/// through the server's admin interface. What `shared-groups --apply` and `sync --rosters
/// shared` both plan and apply.
public struct SharedGroupsPlan {
    /// How the server is reached.
    public enum Server {
        /// ejabberd's mod_http_api, or ejabberdctl.
        case ejabberd(any SharedRosterAdmin)
        /// Prosody: the groups file (written here) and the admin shell (mod_groups reloaded).
        case prosody(ProsodyShell)
    }

    /// The file's groups.
    public let groups: SharedGroups
    /// What to send, in order.
    public let steps: [SharedGroupsApply.Step]
    /// The groups as the server will hold them.
    public let wanted: [EjabberdAPI.SharedGroup]
    /// Prosody: the groups file's text and path.
    let file: (text: String, path: String)?

    /// ejabberd: the steps from `current`, the host's groups (the API's, or sync's state's).
    public init(ejabberd groups: SharedGroups, current: [EjabberdAPI.SharedGroup]) {
        self.groups = groups
        wanted = groups.ejabberdGroups
        steps = SharedGroupsApply.ejabberdSteps(wanted: wanted, current: current)
        file = nil
    }

    /// Prosody: the steps from the groups file at `path` as it is (`existing`; nil: none yet).
    /// `reloadPending`: the file was written without a reload seen to succeed afterwards.
    public init(prosody groups: SharedGroups, existing: [UInt8]?, path: String, reloadPending: Bool = false) {
        self.groups = groups
        wanted = groups.prosodyGroups
        let text = groups.prosodyFile()
        file = (text, path)
        steps = SharedGroupsApply.prosodySteps(wanted: wanted, text: text, existing: existing, path: path, host: groups.domain,
                                               reloadPending: reloadPending)
    }

    public var isEmpty: Bool { steps.isEmpty }

    /// The membership steps, which the plan counts as changes (Prosody's write and reload carry them).
    public var changes: Int {
        steps.filter { if case .writeFile = $0 { return false }; if case .reloadGroups = $0 { return false }; return true }.count
    }

    /// The SHA-256 (hex) of the Prosody groups file this plan writes.
    public var fileSHA256: String? { file.map { Hex.encode(Crypto.hash(.sha256, Array($0.text.utf8))) } }

    /// Sends the steps through `server`; `done` is called after each. ejabberd: one API call a
    /// step. Prosody: the file rewritten atomically (a temporary file renamed over it, mode
    /// 0644), then mod_groups reloaded and the host's cache of offline accounts' rosters
    /// emptied (`ProsodyShell.clearRosterCache`); the membership steps are done once all are.
    public func apply(_ server: Server, done: (SharedGroupsApply.Step) -> Void = { _ in }) throws {
        switch server {
        case .ejabberd(let api):
            try SharedGroupsApply.apply(steps, wanted: wanted, api: api, host: groups.domain, done: done)
        case .prosody(let shell):
            guard let file, !steps.isEmpty else { return }
            if steps.contains(.writeFile(path: file.path)) {
                try SecureFile.write(Array(file.text.utf8), to: file.path, mode: .shared)
            }
            try shell.reloadModule("groups", host: groups.domain)
            // Offline accounts' cached rosters would keep the old groups past their next log-in.
            try shell.clearRosterCache(host: groups.domain)
            for step in steps { done(step) }
        }
    }
}

extension SharedGroupsApply.Step {
    /// The step as JSON for a plan: `action` (make-group, set-group, add, remove, delete-group,
    /// write-file, reload), and `group` (the label), `jid`, `shows` (labels) or `path`, `host`.
    public var json: JSONValue {
        switch self {
        case .createGroup(_, let label): return .object([("action", .string("make-group")), ("group", .string(label))])
        case .updateGroup(_, let label, _, let shown):
            return .object([("action", .string("set-group")), ("group", .string(label)), ("shows", .array(shown.map(JSONValue.string)))])
        case .addMember(let jid, _, let label): return .object([("action", .string("add")), ("jid", .string(jid)), ("group", .string(label))])
        case .removeMember(let jid, _, let label):
            return .object([("action", .string("remove")), ("jid", .string(jid)), ("group", .string(label))])
        case .deleteGroup(_, let label): return .object([("action", .string("delete-group")), ("group", .string(label))])
        case .writeFile(let path): return .object([("action", .string("write-file")), ("path", .string(path))])
        case .reloadGroups(let host): return .object([("action", .string("reload")), ("host", .string(host))])
        }
    }
}
