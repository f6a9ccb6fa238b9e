/// The names of a vCard's fields as the tools spell them (`--field`, `--clear`, JSON keys,
/// read-back reports).
public enum VCardField: String, Sendable, CaseIterable {
    case fullname, given, family, middle, prefix, suffix, nickname, birthday
    case org, orgUnit = "org_unit", title, role
    case email, phone, address, url, note
    case jabberID = "jabber_id", photo

    /// Fields that hold a list of values.
    public var isRepeatable: Bool { self == .orgUnit || self == .email || self == .phone || self == .address }

    /// Where a scalar field's text is kept in a card; nil for repeatable fields and photo.
    private var scalarPath: WritableKeyPath<VCard, String?>? {
        switch self {
        case .fullname: return \.fullName
        case .given: return \.name.given
        case .family: return \.name.family
        case .middle: return \.name.middle
        case .prefix: return \.name.prefix
        case .suffix: return \.name.suffix
        case .nickname: return \.nickname
        case .birthday: return \.birthday
        case .org: return \.organization.name
        case .title: return \.title
        case .role: return \.role
        case .url: return \.url
        case .note: return \.note
        case .jabberID: return \.jabberID
        case .orgUnit, .email, .phone, .address, .photo: return nil
        }
    }

    /// Removes this field from `card`.
    public func clear(in card: inout VCard) {
        switch self {
        case .orgUnit: card.organization.units = []
        case .email: card.emails = []
        case .phone: card.phones = []
        case .address: card.addresses = []
        case .photo: card.photo = nil
        default: set(nil, in: &card)
        }
    }

    /// The single text value of a scalar field in `card`; nil for repeatable fields and photo.
    public func text(in card: VCard) -> String? {
        scalarPath.flatMap { card[keyPath: $0] }
    }

    /// Sets a scalar field; ignored for repeatable fields and photo.
    public func set(_ value: String?, in card: inout VCard) {
        guard let scalarPath else { return }
        card[keyPath: scalarPath] = value
    }

    /// The scalar text fields, in display order.
    public static let scalars: [VCardField] = [
        .fullname, .given, .family, .middle, .prefix, .suffix, .nickname, .birthday, .org, .title, .role, .url, .note, .jabberID,
    ]
}
