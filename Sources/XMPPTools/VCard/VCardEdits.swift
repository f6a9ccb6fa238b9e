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

    /// Only the nickname is set or cleared.
    var onlyNickname: Bool {
        orgUnits == nil && emails == nil && phones == nil && addresses == nil && photo == nil
            && scalars.allSatisfy { $0.0 == .nickname } && clears.allSatisfy { $0 == .nickname } && !isEmpty
    }

    /// The values `set` was given, as typed, before they are checked.
    struct Requested {
        /// Scalar fields and their values, in the order `set` declares them.
        var scalars: [(VCardField, String)] = []
        var orgUnits: [String] = []
        var emails: [String] = []
        var phones: [String] = []
        var addresses: [String] = []
        /// `--photo FILE`.
        var photo: String?
        var clears: [VCardField] = []
    }

    /// Checks what was requested; `loadPhoto` reads `--photo FILE`. An empty value clears the field.
    static func parse(_ requested: Requested, loadPhoto: (String) throws -> VCard.Photo) throws -> VCardEdits {
        var edits = VCardEdits()
        var set: [VCardField] = []
        for (field, value) in requested.scalars {
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
        func list<T>(_ values: [String], _ field: VCardField, _ parse: (String) throws -> T) throws -> [T]? {
            guard !values.isEmpty else { return nil }
            set.append(field)
            return try values.filter { !$0.isEmpty }.map(parse)
        }
        edits.orgUnits = try list(requested.orgUnits, .orgUnit) { $0 }
        edits.emails = try list(requested.emails, .email, VCardSyntax.email)
        edits.phones = try list(requested.phones, .phone, VCardSyntax.phone)
        edits.addresses = try list(requested.addresses, .address, VCardSyntax.address)
        if let path = requested.photo {
            edits.photo = try loadPhoto(path)
            set.append(.photo)
        }
        for field in requested.clears {
            // Which field a --clear names is a value, so this is not an OptionRule.
            if set.contains(field) { throw ToolFailure(.usage, "--clear \(field.rawValue) conflicts with the value given for it") }
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
