import CryptoPrimitives
import ServerAdmin
import TextFormats
import XMPPStorage

/// What `xmpp-register sync --rosters shared` last applied to one domain's shared roster
/// groups, beside sync's state of its accounts: `$XDG_STATE_HOME/xmpp-tools/sync/DOMAIN.groups.json`
/// (mode 0600 in 0700 directories, replaced atomically, under sync's lock). The server's groups
/// are the truth whenever sync reads them; this is what `--no-refresh` plans from (ejabberd),
/// and for Prosody which groups file a reload was seen to load, so that a run stopped between
/// writing the file and reloading mod_groups reloads it the next time.
public struct SyncGroupsState: Sendable, Equatable {
    /// The server's kind the groups were applied to.
    public var server: SharedGroups.Kind
    /// The groups as they were left.
    public var groups: [EjabberdAPI.SharedGroup]
    /// Prosody: the SHA-256 (hex) of the groups file mod_groups was last reloaded with.
    public var loadedFileSHA256: String?

    public init(server: SharedGroups.Kind, groups: [EjabberdAPI.SharedGroup], loadedFileSHA256: String? = nil) {
        self.server = server
        self.groups = groups
        self.loadedFileSHA256 = loadedFileSHA256
    }

    /// The file of `domain` under `stateDirectory` (`$XDG_STATE_HOME/xmpp-tools`).
    public static func path(domain: String, stateDirectory: String) -> String {
        stateDirectory + "/sync/" + domain + ".groups.json"
    }

    /// The groups state of `domain`; nil when sync has applied none there yet. A file another
    /// user owns or can write, or that is not one, is refused.
    public static func load(domain: String, stateDirectory: String) throws(BatchError) -> SyncGroupsState? {
        guard SyncState.isDomain(domain) else { throw .syncState("'\(domain)' is not a domain") }
        let path = path(domain: domain, stateDirectory: stateDirectory)
        guard let bytes = try SyncStateFile.read(path, maxBytes: 64 << 20) else { return nil }
        guard let value = try? JSONParser.parse(bytes), let state = decode(value) else {
            throw .syncState("\(path) is not sync's shared-groups state; move it away only if no sync manages \(domain)'s groups")
        }
        return state
    }

    /// Writes the state atomically (0600; directories 0700).
    public func save(domain: String, stateDirectory: String) throws(BatchError) {
        guard SyncState.isDomain(domain) else { throw .syncState("'\(domain)' is not a domain") }
        try SyncStateFile.write(encoded, to: SyncGroupsState.path(domain: domain, stateDirectory: stateDirectory),
                                stateDirectory: stateDirectory, what: "the shared-groups state")
    }

    var encoded: JSONValue {
        let groups = self.groups.sorted { $0.id < $1.id }.map { g -> JSONValue in
            .object([("id", .string(g.id)), ("label", .string(g.label)), ("description", .string(g.description)),
                     ("displays", .array(g.displays.map(JSONValue.string))), ("members", .array(g.members.sorted().map(JSONValue.string)))])
        }
        return .object([("format", .string("xmpp-tools sync groups 1")), ("server", .string(server.rawValue)),
                        ("loaded_file_sha256", .optional(loadedFileSHA256)), ("groups", .array(groups))])
    }

    static func decode(_ value: JSONValue) -> SyncGroupsState? {
        guard case .object(let top) = value, field(top, "format") == .string("xmpp-tools sync groups 1"),
              case .string(let serverText)? = field(top, "server"), let server = SharedGroups.Kind(rawValue: serverText),
              case .array(let items)? = field(top, "groups") else { return nil }
        var groups: [EjabberdAPI.SharedGroup] = []
        for item in items {
            guard case .object(let g) = item, let id = string(g, "id"), let label = string(g, "label"),
                  let description = string(g, "description") else { return nil }
            groups.append(EjabberdAPI.SharedGroup(id: id, label: label, description: description, displays: strings(g, "displays"),
                                                  members: Set(strings(g, "members"))))
        }
        return SyncGroupsState(server: server, groups: groups, loadedFileSHA256: string(top, "loaded_file_sha256"))
    }

    private static func field(_ object: [(String, JSONValue)], _ key: String) -> JSONValue? { object.first { $0.0 == key }?.1 }

    private static func string(_ object: [(String, JSONValue)], _ key: String) -> String? {
        if case .string(let s)? = field(object, key) { return s }
        return nil
    }

    private static func strings(_ object: [(String, JSONValue)], _ key: String) -> [String] {
        guard case .array(let items)? = field(object, key) else { return [] }
        return items.compactMap { if case .string(let s) = $0 { return s }; return nil }
    }
}

extension SharedGroupsPlan {
    /// sync's plan for Prosody: as `init(prosody:…)`, with the reload still owed when the file
    /// already says what is wanted but `state` does not record it loaded (a run stopped between
    /// the write and the reload, or a file written by hand).
    public static func sync(prosody groups: SharedGroups, existing: [UInt8]?, path: String, state: SyncGroupsState?) -> SharedGroupsPlan {
        let text = Array(groups.prosodyFile().utf8)
        let pending = existing == text && state?.loadedFileSHA256 != Hex.encode(Crypto.hash(.sha256, text))
        return SharedGroupsPlan(prosody: groups, existing: existing, path: path, reloadPending: pending)
    }

    /// What sync records once the plan is applied.
    public var appliedState: SyncGroupsState {
        SyncGroupsState(server: groups.kind, groups: wanted, loadedFileSHA256: fileSHA256)
    }
}
