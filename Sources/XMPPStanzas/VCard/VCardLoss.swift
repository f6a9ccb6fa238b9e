import XMLTree

/// One value a server did not keep when a vCard was published and read back: `org_unit`
/// "Research", `email.type` "pref on alice@example.org", or an unmodelled element by its name (`TZ`).
public struct VCardLoss: Sendable, Equatable, CustomStringConvertible {
    /// The field: a `VCardField` name, `FIELD.type` for a type flag, or an element name.
    public var field: String
    /// What was lost, for people.
    public var value: String

    /// Builds a loss.
    public init(field: String, value: String) {
        self.field = field
        self.value = value
    }

    public var description: String { "\(field): \(value)" }
}

extension VCard {
    /// Every value of this card (as sent) missing from `kept` (as read back). Values the server
    /// added (Prosody adds INTERNET to emails) are not losses; nor is anything this card lacks.
    public func losses(comparedTo kept: VCard) -> [VCardLoss] {
        var out: [VCardLoss] = []
        for field in VCardField.scalars {
            if let sent = field.text(in: self), sent != field.text(in: kept) {
                out.append(VCardLoss(field: field.rawValue, value: sent))
            }
        }
        out += VCard.lostElements(name.extras, kept.name.extras)
        var units = kept.organization.units
        for unit in organization.units {
            if let i = units.firstIndex(of: unit) { units.remove(at: i) } else { out.append(VCardLoss(field: "org_unit", value: unit)) }
        }
        out += VCard.lostElements(organization.extras, kept.organization.extras)
        out += VCard.entryLosses("email", emails.map { Entry($0.address, $0.address, $0.types, $0.extras) },
                                 kept.emails.map { Entry($0.address, $0.address, $0.types, $0.extras) })
        out += VCard.entryLosses("phone", phones.map { Entry($0.number, $0.number, $0.types, $0.extras) },
                                 kept.phones.map { Entry($0.number, $0.number, $0.types, $0.extras) })
        out += VCard.entryLosses("address", addresses.map { Entry($0.key, $0.summary, $0.types, $0.extras) },
                                 kept.addresses.map { Entry($0.key, $0.summary, $0.types, $0.extras) })
        if let photo {
            let same = kept.photo.map { $0.type == photo.type && $0.compactBase64 == photo.compactBase64 && $0.externalURL == photo.externalURL } ?? false
            if !same { out.append(VCardLoss(field: "photo", value: photo.type ?? photo.externalURL ?? "image")) }
        }
        out += VCard.lostElements(extras, kept.extras)
        return out
    }

    /// An EMAIL, TEL or ADR reduced to what read-back compares.
    private struct Entry {
        var key: String
        var label: String
        var types: [String]
        var extras: [XMLElement]
        init(_ key: String, _ label: String, _ types: [String], _ extras: [XMLElement]) {
            self.key = key
            self.label = label
            self.types = types
            self.extras = extras
        }
    }

    /// Entries matched by value; a missing entry is one loss, missing flags one loss each.
    /// Each kept entry matches one sent entry, the first of its key in order; found through a
    /// queue per key, not a search of the rest (that was O(N²) in the entries).
    private static func entryLosses(_ field: String, _ sent: [Entry], _ kept: [Entry]) -> [VCardLoss] {
        var remaining = KeyedQueue(kept.indices.map { (kept[$0].key, $0) })
        var out: [VCardLoss] = []
        for entry in sent {
            guard let i = remaining.take(entry.key) else {
                out.append(VCardLoss(field: field, value: entry.label))
                continue
            }
            let match = kept[i]
            for type in entry.types where !match.types.contains(type) {
                out.append(VCardLoss(field: field + ".type", value: "\(type) on \(entry.label)"))
            }
            out += lostElements(entry.extras, match.extras)
        }
        return out
    }

    /// Elements of `sent` with no equal element in `kept`, each once.
    private static func lostElements(_ sent: [XMLElement], _ kept: [XMLElement]) -> [VCardLoss] {
        // Compared without the indentation or Base64 line breaks a server may add.
        var remaining = KeyedQueue(kept.indices.map { (comparable(kept[$0]), $0) })
        var out: [VCardLoss] = []
        for e in sent {
            if remaining.take(comparable(e)) == nil {
                let text = summary(of: e)
                out.append(VCardLoss(field: e.name, value: text.count > 60 ? String(text.prefix(60)) + "…" : text))
            }
        }
        return out
    }
}

extension VCard.Address {
    /// The non-empty parts joined by ", " (street first), for messages.
    public var summary: String {
        [street, extended, poBox, locality, region, code, country].compactMap { $0 }.joined(separator: ", ")
    }

    /// The seven parts, unambiguously joined, for matching.
    var key: String { components.map { $0 ?? "\u{0}" }.joined(separator: "\u{1F}") }
}

/// Indices grouped by key, each group taken in order: a multiset match in O(1) a lookup.
private struct KeyedQueue<Key: Hashable> {
    private var queues: [Key: (next: Int, indices: [Int])] = [:]

    init(_ pairs: [(Key, Int)]) {
        for (key, index) in pairs { queues[key, default: (0, [])].indices.append(index) }
    }

    /// The first index of `key` not yet taken, or nil.
    mutating func take(_ key: Key) -> Int? {
        guard let queue = queues[key], queue.next < queue.indices.count else { return nil }
        queues[key]?.next += 1
        return queue.indices[queue.next]
    }
}
