/// The names of a vCard's fields as the tools spell them (`--field`, `--clear`, JSON keys,
/// read-back reports).
public enum VCardField: String, Sendable, CaseIterable {
    case fullname, given, family, middle, prefix, suffix, nickname, birthday
    case org, orgUnit = "org_unit", title, role
    case email, phone, address, url, note
    case jabberID = "jabber_id", photo

    /// Fields that hold a list of values.
    public var isRepeatable: Bool { self == .orgUnit || self == .email || self == .phone || self == .address }

    /// Removes this field from `card`.
    public func clear(in card: inout VCard) {
        switch self {
        case .fullname: card.fullName = nil
        case .given: card.name.given = nil
        case .family: card.name.family = nil
        case .middle: card.name.middle = nil
        case .prefix: card.name.prefix = nil
        case .suffix: card.name.suffix = nil
        case .nickname: card.nickname = nil
        case .birthday: card.birthday = nil
        case .org: card.organization.name = nil
        case .orgUnit: card.organization.units = []
        case .title: card.title = nil
        case .role: card.role = nil
        case .email: card.emails = []
        case .phone: card.phones = []
        case .address: card.addresses = []
        case .url: card.url = nil
        case .note: card.note = nil
        case .jabberID: card.jabberID = nil
        case .photo: card.photo = nil
        }
    }

    /// The single text value of a scalar field in `card`; nil for repeatable fields and photo.
    public func text(in card: VCard) -> String? {
        switch self {
        case .fullname: return card.fullName
        case .given: return card.name.given
        case .family: return card.name.family
        case .middle: return card.name.middle
        case .prefix: return card.name.prefix
        case .suffix: return card.name.suffix
        case .nickname: return card.nickname
        case .birthday: return card.birthday
        case .org: return card.organization.name
        case .title: return card.title
        case .role: return card.role
        case .url: return card.url
        case .note: return card.note
        case .jabberID: return card.jabberID
        case .orgUnit, .email, .phone, .address, .photo: return nil
        }
    }

    /// Sets a scalar field; ignored for repeatable fields and photo.
    public func set(_ value: String?, in card: inout VCard) {
        switch self {
        case .fullname: card.fullName = value
        case .given: card.name.given = value
        case .family: card.name.family = value
        case .middle: card.name.middle = value
        case .prefix: card.name.prefix = value
        case .suffix: card.name.suffix = value
        case .nickname: card.nickname = value
        case .birthday: card.birthday = value
        case .org: card.organization.name = value
        case .title: card.title = value
        case .role: card.role = value
        case .url: card.url = value
        case .note: card.note = value
        case .jabberID: card.jabberID = value
        case .orgUnit, .email, .phone, .address, .photo: return
        }
    }

    /// The scalar text fields, in display order.
    public static let scalars: [VCardField] = [
        .fullname, .given, .family, .middle, .prefix, .suffix, .nickname, .birthday, .org, .title, .role, .url, .note, .jabberID,
    ]
}
