import Arguments
import XMPPStanzas

/// What `set` was told to change, checked before anything is sent.
struct VCardEdits {
    /// Scalar fields and their new values, in command-line order.
    var scalars: [(VCardField, String)] = []
    /// Replacement lists, when given.
    var orgUnits: [String]?
    var emails: [VCard.Email]?
    var phones: [VCard.Phone]?
    var addresses: [VCard.Address]?
    /// A new photo.
    var photo: VCard.Photo?
    /// Fields to remove.
    var clears: [VCardField] = []

    /// Nothing to change.
    var isEmpty: Bool {
        scalars.isEmpty && orgUnits == nil && emails == nil && phones == nil && addresses == nil && photo == nil && clears.isEmpty
    }

    /// Options of `set` and the field each sets.
    static let scalarOptions: [(String, VCardField)] = [
        ("fullname", .fullname), ("given", .given), ("family", .family), ("middle", .middle), ("prefix", .prefix),
        ("suffix", .suffix), ("nickname", .nickname), ("birthday", .birthday), ("org", .org), ("title", .title),
        ("role", .role), ("url", .url), ("note", .note), ("jabber-id", .jabberID),
    ]

    /// Reads and checks the options; `loadPhoto` reads `--photo FILE`. An empty value clears the field.
    static func parse(_ command: ParsedCommand, loadPhoto: (String) throws -> VCard.Photo) throws -> VCardEdits {
        var edits = VCardEdits()
        var set: [VCardField] = []
        for (option, field) in scalarOptions {
            guard let value = command.string(option) else { continue }
            if value.isEmpty { edits.clears.append(field); continue }
            switch field {
            case .birthday: edits.scalars.append((field, try VCardSyntax.birthday(value)))
            case .jabberID:
                do { edits.scalars.append((field, try JID(value).bare.description)) } catch {
                    throw ToolFailure(.usage, "invalid --jabber-id '\(value)': \(error)")
                }
            default: edits.scalars.append((field, value))
            }
            set.append(field)
        }
        func list<T>(_ option: String, _ field: VCardField, _ parse: (String) throws -> T) throws -> [T]? {
            let values = command.strings(option)
            guard !values.isEmpty else { return nil }
            set.append(field)
            return try values.filter { !$0.isEmpty }.map(parse)
        }
        edits.orgUnits = try list("org-unit", .orgUnit) { $0 }
        edits.emails = try list("email", .email, VCardSyntax.email)
        edits.phones = try list("phone", .phone, VCardSyntax.phone)
        edits.addresses = try list("address", .address, VCardSyntax.address)
        if let path = command.string("photo") {
            edits.photo = try loadPhoto(path)
            set.append(.photo)
        }
        for name in command.strings("clear") {
            guard let field = VCardField(rawValue: name) else {
                throw ToolFailure(.usage, "invalid --clear '\(name)': expected one of "
                    + VCardField.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if set.contains(field) { throw ToolFailure(.usage, "--clear \(name) conflicts with the value given for it") }
            if !edits.clears.contains(field) { edits.clears.append(field) }
        }
        return edits
    }

    /// Applies the changes; every field not named keeps its value.
    func apply(to card: inout VCard) {
        for field in clears { field.clear(in: &card) }
        for (field, value) in scalars { field.set(value, in: &card) }
        if let orgUnits { card.organization.units = orgUnits }
        if let emails { card.emails = emails }
        if let phones { card.phones = phones }
        if let addresses { card.addresses = addresses }
        if let photo { card.photo = photo }
    }
}
