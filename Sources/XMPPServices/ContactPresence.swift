import XMPPStanzas

/// What is known of one contact's presence (RFC 6121 §4): the best available resource's
/// state, or offline, or unknown when presence was not gathered.
public struct ContactPresence: Equatable, Sendable {
    /// A contact's presence state. The raw values are the words the tools print and the JSON
    /// field `presence` carries: stable names.
    public enum State: String, Equatable, Sendable, CaseIterable {
        /// Available with no `<show/>`.
        case online
        /// Available, with `<show/>` chat, away, xa or dnd.
        case chat, away, xa, dnd
        /// Presence was gathered and no resource is available.
        case offline
        /// Presence was not gathered (`--cached`, `--no-presence`).
        case unknown

        /// The state of an available resource showing `show` (nil: plain available).
        public init(show: Presence.Show?) {
            switch show {
            case nil: self = .online
            case .chat?: self = .chat
            case .away?: self = .away
            case .xa?: self = .xa
            case .dnd?: self = .dnd
            }
        }

        /// Whether a resource is available in this state.
        public var isAvailable: Bool { self != .offline && self != .unknown }

        /// Orders available states from most to least available (RFC 6121 §4.7.2.1's `show`
        /// values, with plain available beside chat), for ties in priority.
        var availabilityRank: Int {
            switch self {
            case .chat: return 0
            case .online: return 1
            case .away: return 2
            case .xa: return 3
            case .dnd: return 4
            case .offline, .unknown: return 5
            }
        }
    }

    /// One available resource.
    public struct Resource: Equatable, Sendable {
        public var resource: String
        public var state: State
        public var status: String?
        public var priority: Int

        public init(resource: String, state: State, status: String?, priority: Int) {
            self.resource = resource
            self.state = state
            self.status = status
            self.priority = priority
        }
    }

    /// The best resource's state, offline, or unknown.
    public var state: State
    /// The status text of the best resource.
    public var status: String?
    /// Available resources, best first.
    public var resources: [Resource]

    public init(state: State, status: String?, resources: [Resource]) {
        self.state = state
        self.status = status
        self.resources = resources
    }

    /// Presence that was not gathered (--cached, --no-presence).
    public static let unknown = ContactPresence(state: .unknown, status: nil, resources: [])
    /// Gathered, and no resource is available.
    public static let offline = ContactPresence(state: .offline, status: nil, resources: [])
}

/// Collects contacts' presence stanzas in arrival order into one state per contact.
public struct PresenceBook: Sendable {
    private var resources: [JID: [String: ContactPresence.Resource]] = [:]
    private let account: JID

    public init(account: JID) { self.account = account.bare }

    /// Takes one presence; subscription stanzas and the account's own presences are left out.
    public mutating func add(_ presence: Presence) {
        guard let from = presence.from, from.bare != account else { return }
        let contact = from.bare
        let resource = from.resource ?? ""
        switch presence.type {
        case nil:
            resources[contact, default: [:]][resource] = ContactPresence.Resource(
                resource: resource, state: ContactPresence.State(show: presence.show), status: presence.status,
                priority: presence.priority ?? 0)
        case .unavailable?:
            // Nothing kept for an offline contact: most of a big roster answers its probe so.
            if from.resource == nil { resources[contact] = nil } else { resources[contact]?[resource] = nil }
            if resources[contact]?.isEmpty == true { resources[contact] = nil }
        default:
            return
        }
    }

    /// The state of `contact`: offline unless a resource is available. The best resource has
    /// the highest priority, then the most available state, then the first resource name.
    public func presence(of contact: JID) -> ContactPresence {
        guard let list = resources[contact]?.values, !list.isEmpty else { return .offline }
        let sorted = list.sorted { a, b in
            if a.priority != b.priority { return a.priority > b.priority }
            if a.state.availabilityRank != b.state.availabilityRank { return a.state.availabilityRank < b.state.availabilityRank }
            return a.resource < b.resource
        }
        return ContactPresence(state: sorted[0].state, status: sorted[0].status, resources: sorted)
    }
}
