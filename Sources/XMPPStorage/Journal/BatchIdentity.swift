/// What makes two runs the same batch, as its journal records it: the input's digest and the
/// options that shape the plan. Recorded as text (`text`), exactly as journals have held it
/// since v1 (`key=value` pairs separated by `; `): the journal's file name is that text's digest,
/// so a journal written before this type is found, read back (`init?(text:)`) and continued.
public struct BatchIdentity: Sendable, Equatable {
    /// Which command's run: a batch, or the batch part of a sync.
    public enum Kind: String, Sendable {
        case batch = "xmpp-register batch v1"
        case sync = "xmpp-register sync v1"
    }

    /// What a batch does to its rows' accounts.
    public enum Mode: String, Sendable {
        case create, delete, passwd
    }

    /// The options that are on or off.
    public enum Option: String, Sendable, CaseIterable {
        /// Accounts created through the administrator's commands.
        case admin
        /// Invitations instead of accounts (which runs as the administrator too).
        case invite
        /// Generated passwords.
        case generatePasswords = "generate"
        /// Shared roster groups.
        case sharedGroups = "shared-groups"
    }

    public var kind: Kind
    /// A batch's mode (nil for a sync).
    public var mode: Mode?
    /// The domain bare names in the input are taken on (nil: none given).
    public var domain: String?
    /// The shard, as `K/N` (nil: every row).
    public var shard: String?
    /// The options on.
    public var options: Set<Option>
    /// The input's SHA-256, in hex.
    public var inputSHA256: String
    /// The LDIF attributes' columns, as `attribute=column,…` (nil for a CSV).
    public var directoryMap: String?
    /// A sync's plan (what its batch part stands for), SHA-256 in hex.
    public var planSHA256: String?

    /// A batch's identity.
    public static func batch(mode: Mode, domain: String?, shard: String?, options: Set<Option>, inputSHA256: String,
                             directoryMap: String?) -> BatchIdentity {
        BatchIdentity(kind: .batch, mode: mode, domain: domain, shard: shard, options: options, inputSHA256: inputSHA256,
                      directoryMap: directoryMap, planSHA256: nil)
    }

    /// A sync's batch part.
    public static func sync(domain: String?, inputSHA256: String, planSHA256: String) -> BatchIdentity {
        BatchIdentity(kind: .sync, mode: nil, domain: domain, shard: nil, options: [], inputSHA256: inputSHA256,
                      directoryMap: nil, planSHA256: planSHA256)
    }

    /// The recorded text.
    public var text: String {
        switch kind {
        case .sync:
            return "\(kind.rawValue); domain=\(domain ?? "-"); input-sha256=\(inputSHA256); plan-sha256=\(planSHA256 ?? "-")"
        case .batch:
            func flag(_ option: Option) -> String { options.contains(option) ? "\(option.rawValue)=1; " : "" }
            return "\(kind.rawValue); mode=\(mode?.rawValue ?? "-"); domain=\(domain ?? "-"); shard=\(shard ?? "-"); "
                + "generate=\(options.contains(.generatePasswords) ? 1 : 0); " + flag(.admin) + flag(.invite) + flag(.sharedGroups)
                + "input-sha256=\(inputSHA256)" + (directoryMap.map { "; ldif-map=\($0)" } ?? "")
        }
    }

    /// Reads recorded text back; nil when it is not an identity this version writes (another
    /// version's, or no journal's).
    public init?(text: String) {
        var rest = Substring(text)
        var map: String?
        // The map is last and may hold any text but a line break: everything after its key.
        if let range = text.utf8.firstRange(of: "; ldif-map=".utf8) {
            map = String(text[range.upperBound...])
            rest = text[..<range.lowerBound]
        }
        let parts = rest.split(separator: ";", omittingEmptySubsequences: false).map { $0.drop(while: { $0 == " " }) }
        guard let head = parts.first, let kind = Kind(rawValue: String(head)) else { return nil }
        var pairs: [String: String] = [:]
        for part in parts.dropFirst() {
            guard let eq = part.firstIndex(of: "="), pairs.updateValue(String(part[part.index(after: eq)...]),
                                                                         forKey: String(part[..<eq])) == nil else { return nil }
        }
        func optional(_ key: String) -> String? { pairs[key] == "-" ? nil : pairs[key] }
        guard let input = pairs["input-sha256"], pairs["domain"] != nil else { return nil }
        switch kind {
        case .sync:
            guard pairs.count == 3, map == nil, let plan = pairs["plan-sha256"] else { return nil }
            self = .sync(domain: optional("domain"), inputSHA256: input, planSHA256: plan)
        case .batch:
            guard let mode = pairs["mode"].flatMap(Mode.init(rawValue:)), pairs["shard"] != nil,
                  let generate = pairs["generate"], generate == "0" || generate == "1" else { return nil }
            var options: Set<Option> = generate == "1" ? [.generatePasswords] : []
            for option in [Option.admin, .invite, .sharedGroups] {
                guard let value = pairs[option.rawValue] else { continue }
                guard value == "1" else { return nil }
                options.insert(option)
            }
            guard pairs.count == 5 + options.subtracting([.generatePasswords]).count else { return nil }
            self = .batch(mode: mode, domain: optional("domain"), shard: optional("shard"), options: options,
                          inputSHA256: input, directoryMap: map)
        }
        // Only the one spelling this version writes, byte for byte (it names the journal's file).
        guard self.text.utf8.elementsEqual(text.utf8) else { return nil }
    }

    private init(kind: Kind, mode: Mode?, domain: String?, shard: String?, options: Set<Option>, inputSHA256: String,
                 directoryMap: String?, planSHA256: String?) {
        self.kind = kind
        self.mode = mode
        self.domain = domain
        self.shard = shard
        self.options = options
        self.inputSHA256 = inputSHA256
        self.directoryMap = directoryMap
        self.planSHA256 = planSHA256
    }
}

/// What makes one run another batch than the one a journal recorded; the command layer words
/// each in its options' names.
public enum BatchIdentityDifference: Sendable, Equatable {
    /// The file records no batch.
    case notAJournal
    /// Another version of the tool recorded it, in a form this one does not read.
    case otherVersion
    /// An option the recorded run had (`recorded`) and this one has not, or the other way round.
    case option(BatchIdentity.Option, recorded: Bool)
    /// Another mode (nil: a sync's run).
    case mode(recorded: BatchIdentity.Mode?, current: BatchIdentity.Mode?)
    /// Another domain for bare names.
    case domain(recorded: String?, current: String?)
    /// Another shard.
    case shard(recorded: String?, current: String?)
    /// Other input bytes.
    case input
    /// Another LDIF attribute map.
    case directoryMap
    /// Another sync plan.
    case plan
}

extension BatchIdentity {
    /// What differs between the recorded run (nil: text this version does not read, `recordedText`)
    /// and this one; empty when they are the same batch.
    public static func differences(recorded: BatchIdentity?, recordedText: String, current: BatchIdentity) -> [BatchIdentityDifference] {
        guard let old = recorded else { return [recordedText.isEmpty ? .notAJournal : .otherVersion] }
        guard old != current else { return [] }
        var out: [BatchIdentityDifference] = []
        // --invite runs as the administrator (admin too): name --admin only when it differs on its own.
        func has(_ identity: BatchIdentity, _ option: Option) -> Bool { identity.options.contains(option) }
        let adminFollowsInvite = has(old, .invite) != has(current, .invite) && has(old, .admin) == has(old, .invite)
            && has(current, .admin) == has(current, .invite)
        for option in [Option.admin, .invite, .generatePasswords, .sharedGroups] where has(old, option) != has(current, option) {
            if option == .admin && adminFollowsInvite { continue }
            out.append(.option(option, recorded: has(old, option)))
        }
        if old.mode != current.mode { out.append(.mode(recorded: old.mode, current: current.mode)) }
        if old.domain != current.domain { out.append(.domain(recorded: old.domain, current: current.domain)) }
        if old.shard != current.shard { out.append(.shard(recorded: old.shard, current: current.shard)) }
        if old.inputSHA256 != current.inputSHA256 { out.append(.input) }
        if old.directoryMap != current.directoryMap { out.append(.directoryMap) }
        if old.planSHA256 != current.planSHA256 { out.append(.plan) }
        if out.isEmpty { out.append(.otherVersion) }
        return out
    }

    /// True when the two runs create the same input's accounts with the same options but one
    /// does it through the administrator's commands (--admin) and the other in-band.
    public static func differOnlyInAdmin(_ recorded: BatchIdentity?, _ current: BatchIdentity) -> Bool {
        guard var old = recorded, old.kind == .batch, current.kind == .batch, old.mode == .create, current.mode == .create,
              !old.options.contains(.invite), !current.options.contains(.invite),
              old.options.contains(.admin) != current.options.contains(.admin) else { return false }
        old.options.formSymmetricDifference([.admin])
        return old == current
    }
}
