import XMLTree
import XMPPStanzas

/// The places a profile lives: vcard-temp (XEP-0054), the vCard4 PEP node (XEP-0292) and the
/// nickname PEP node (XEP-0172).
public enum ProfileStore: String, Sendable, CaseIterable {
    case vcardTemp = "vcard-temp"
    case vcard4
    case nick
}

/// What each store held for one JID; nil where the store was absent, empty or not readable.
public struct StoredProfile: Sendable, Equatable {
    public var vcardTemp: VCard?
    public var vcard4: VCard4?
    public var nick: UserNickname?

    public init(vcardTemp: VCard? = nil, vcard4: VCard4? = nil, nick: UserNickname? = nil) {
        self.vcardTemp = vcardTemp
        self.vcard4 = vcard4
        self.nick = nick
    }

    /// True when no store holds anything.
    public var isEmpty: Bool {
        (vcardTemp?.isEmpty ?? true) && (vcard4?.isEmpty ?? true) && nick?.nickname == nil
    }

    /// The stores that hold something, in `ProfileStore` order.
    public var presentStores: [ProfileStore] {
        var out: [ProfileStore] = []
        if let vcardTemp, !vcardTemp.isEmpty { out.append(.vcardTemp) }
        if let vcard4, !vcard4.isEmpty { out.append(.vcard4) }
        if nick?.nickname != nil { out.append(.nick) }
        return out
    }

    /// One store's fields as a card (the nickname store: a card with only the nickname).
    public func card(of store: ProfileStore) -> VCard {
        switch store {
        case .vcardTemp: return vcardTemp ?? VCard()
        case .vcard4: return vcard4?.fields ?? VCard()
        case .nick:
            var c = VCard()
            c.nickname = nick?.nickname
            return c
        }
    }
}

/// Two or more stores holding different values of one field.
public struct ProfileConflict: Sendable, Equatable {
    /// The field.
    public var field: VCardField
    /// Each store's value, for people (lists: one value a line), in precedence order.
    public var values: [(store: ProfileStore, value: String)]

    public static func == (a: ProfileConflict, b: ProfileConflict) -> Bool {
        a.field == b.field && a.values.map(\.store) == b.values.map(\.store) && a.values.map(\.value) == b.values.map(\.value)
    }
}

/// The stores merged into one card: per field, the first store in precedence order that holds
/// it — the nickname node, then vCard4, then vcard-temp (what today's clients edit comes
/// first). vcard-temp is the base, so its PHOTO and the fields only it keeps stay; where a list
/// holds the same values in several stores (compared without type flags), vcard-temp's copy is
/// kept when it has every flag the other has (it can hold more: INTERNET, X400).
public struct MergedProfile: Sendable, Equatable {
    /// The merged card.
    public var card: VCard
    /// The store each shown field came from.
    public var sources: [VCardField: ProfileStore]
    /// Fields whose stores disagree.
    public var conflicts: [ProfileConflict]
    /// The stores that held something.
    public var stores: [ProfileStore]
    /// The vCard4 node's properties no field maps (GENDER, LANG, X-…), for a vCard 4.0 export.
    public var vcard4Extras: [XMLElement]

    /// Merges `stored`.
    public init(_ stored: StoredProfile) {
        var card = stored.vcardTemp ?? VCard()
        var sources: [VCardField: ProfileStore] = [:]
        var conflicts: [ProfileConflict] = []
        for field in VCardField.allCases {
            let order: [ProfileStore] = field == .nickname ? [.nick, .vcard4, .vcardTemp]
                : field == .photo ? [.vcardTemp] : [.vcard4, .vcardTemp]
            let held = order.compactMap { store -> (ProfileStore, VCard, String)? in
                let c = stored.card(of: store)
                guard let key = ProfileFieldValue.key(field, in: c) else { return nil }
                return (store, c, key)
            }
            guard let winner = held.first else { continue }
            sources[field] = winner.0
            var distinct: [String] = []
            for h in held where !distinct.contains(h.2) { distinct.append(h.2) }
            if distinct.count > 1 {
                conflicts.append(ProfileConflict(field: field, values: held.map { ($0.0, ProfileFieldValue.shown(field, in: $0.1)) }))
            }
            if let temp = held.first(where: { $0.0 == .vcardTemp }), temp.2 == winner.2,
               ProfileFieldValue.flagsCover(field, temp.1, winner.1) { continue }
            ProfileFieldValue.copy(field, from: winner.1, to: &card)
        }
        self.card = card
        self.sources = sources
        self.conflicts = conflicts
        stores = stored.presentStores
        vcard4Extras = stored.vcard4?.extras ?? []
    }
}

/// A field's value as merge compares, shows and copies it.
enum ProfileFieldValue {
    /// What makes two stores agree: the text, or a list's values without their type flags; nil when absent.
    static func key(_ field: VCardField, in card: VCard) -> String? {
        let key: String
        switch field {
        case .orgUnit: key = card.organization.units.joined(separator: "\n")
        case .email: key = card.emails.map(\.address).joined(separator: "\n")
        case .phone: key = card.phones.map(\.number).joined(separator: "\n")
        case .address: key = card.addresses.map { $0.components.map { $0 ?? "" }.joined(separator: ";") }.joined(separator: "\n")
        case .photo: key = card.photo?.compactBase64 ?? card.photo?.externalURL ?? ""
        default: key = field.text(in: card) ?? ""
        }
        return key.isEmpty ? nil : key
    }

    /// True when each entry of `a`'s list has every type flag `b`'s has (scalars: always).
    static func flagsCover(_ field: VCardField, _ a: VCard, _ b: VCard) -> Bool {
        func covers(_ x: [[String]], _ y: [[String]]) -> Bool {
            x.count == y.count && zip(x, y).allSatisfy { Set($0).isSuperset(of: $1) }
        }
        switch field {
        case .email: return covers(a.emails.map(\.types), b.emails.map(\.types))
        case .phone: return covers(a.phones.map(\.types), b.phones.map(\.types))
        case .address: return covers(a.addresses.map(\.types), b.addresses.map(\.types))
        default: return true
        }
    }

    static func shown(_ field: VCardField, in card: VCard) -> String { key(field, in: card) ?? "" }

    static func copy(_ field: VCardField, from source: VCard, to card: inout VCard) {
        switch field {
        case .orgUnit: card.organization.units = source.organization.units
        case .email: card.emails = source.emails
        case .phone: card.phones = source.phones
        case .address: card.addresses = source.addresses
        case .photo: card.photo = source.photo
        default: field.set(field.text(in: source), in: &card)
        }
    }
}
