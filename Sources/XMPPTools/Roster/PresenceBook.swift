import XMPPStanzas

/// What is known of one contact's presence.
struct ContactPresence: Equatable {
    /// One available resource.
    struct Resource: Equatable {
        var resource: String
        var show: String
        var status: String?
        var priority: Int
    }

    /// online, chat, away, xa, dnd, offline, or unknown (presence was not gathered).
    var state: String
    /// The status text of the best resource.
    var status: String?
    /// Available resources, best first.
    var resources: [Resource]

    /// Presence that was not gathered (--cached, --no-presence).
    static let unknown = ContactPresence(state: "unknown", status: nil, resources: [])
    /// Gathered, and no resource is available.
    static let offline = ContactPresence(state: "offline", status: nil, resources: [])
}

/// Collects contacts' presence stanzas in arrival order into one state per contact.
struct PresenceBook {
    private var resources: [JID: [String: ContactPresence.Resource]] = [:]
    private let account: JID

    init(account: JID) { self.account = account.bare }

    /// Takes one presence; subscription stanzas and the account's own presences are left out.
    mutating func add(_ presence: Presence) {
        guard let from = presence.from, from.bare != account else { return }
        let contact = from.bare
        let resource = from.resource ?? ""
        switch presence.type {
        case nil:
            let show = presence.show?.rawValue ?? "online"
            resources[contact, default: [:]][resource] = ContactPresence.Resource(
                resource: resource, show: show, status: presence.status, priority: presence.priority ?? 0)
        case .unavailable?:
            // Nothing kept for an offline contact: most of a big roster answers its probe so.
            if from.resource == nil { resources[contact] = nil } else { resources[contact]?[resource] = nil }
            if resources[contact]?.isEmpty == true { resources[contact] = nil }
        default:
            return
        }
    }

    /// The state of `contact`: offline unless a resource is available.
    func presence(of contact: JID) -> ContactPresence {
        guard let list = resources[contact]?.values, !list.isEmpty else { return .offline }
        let sorted = list.sorted { a, b in
            if a.priority != b.priority { return a.priority > b.priority }
            if Self.rank(a.show) != Self.rank(b.show) { return Self.rank(a.show) < Self.rank(b.show) }
            return a.resource < b.resource
        }
        return ContactPresence(state: sorted[0].show, status: sorted[0].status, resources: sorted)
    }

    /// Orders shows from most to least available, for ties in priority.
    static func rank(_ show: String) -> Int {
        ["chat", "online", "away", "xa", "dnd"].firstIndex(of: show) ?? 5
    }
}
