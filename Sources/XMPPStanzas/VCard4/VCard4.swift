import XMLTree

/// A XEP-0292 vCard4 (RFC 6351 xCard `<vcard xmlns='urn:ietf:params:xml:ns:vcard-4.0'/>`): the
/// fields `VCard` models, in `fields`, and every other property, kept verbatim in `extras`, so a
/// fetch → change → publish never drops what another client wrote (GENDER, TZ, a second FN…).
///
/// A property is mapped only when it has the shape the mapping reads back unchanged: the value
/// element it expects and no parameters but `type` and `pref` (lists) or none (single values);
/// anything else, and every repeat of a single-valued property, stays in `extras`. PHOTO is not
/// mapped: avatars live in XEP-0084 and the vcard-temp PHOTO, so a vCard4 photo stays in `extras`.
public struct VCard4: Sendable, Equatable {
    /// The mapped fields; `photo` and `extras` of this card are always empty.
    public var fields: VCard
    /// Every property not mapped, in the order it came.
    public var extras: [XMLElement]

    /// A vCard4 with these fields (photo and vcard-temp extras are not carried) and `extras`.
    public init(fields: VCard = VCard(), extras: [XMLElement] = []) {
        self.fields = VCard4.mappable(fields)
        self.extras = extras
    }

    /// `card`'s fields under this card's unmapped properties: what a merge publishes.
    public func replacingFields(with card: VCard) -> VCard4 {
        VCard4(fields: card, extras: extras)
    }

    /// True when nothing at all is set.
    public var isEmpty: Bool { fields.isEmpty && extras.isEmpty }

    /// `card` without what vCard4 does not carry here: the photo and vcard-temp's own extras.
    /// Type flags vCard 4.0 has no place for (`internet`, `x400`) are dropped, as RFC 6350 §6.4.2 did.
    public static func mappable(_ card: VCard) -> VCard {
        var c = card
        c.photo = nil
        c.extras = []
        c.name.extras = []
        c.organization.extras = []
        c.emails = c.emails.map { VCard.Email(address: $0.address, types: $0.types.filter { !droppedEmailTypes.contains($0) }) }
        c.phones = c.phones.map { VCard.Phone(number: $0.number, types: $0.types) }
        c.addresses = c.addresses.map { a in
            var a = a
            a.extras = []
            return a
        }
        return c
    }

    static let droppedEmailTypes: Set<String> = ["internet", "x400"]
}

extension VCard4 {
    /// Reads a `<vcard/>`. Total: what it cannot map lands in `extras`.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("vcard")
        guard element.namespace == Namespace.vcard4 else {
            throw .invalidAttribute(element: "vcard", attribute: "xmlns", value: element.namespace ?? "")
        }
        var card = VCard()
        var extras: [XMLElement] = []
        var seen: Set<String> = []
        for property in element.elements {
            if property.namespace != Namespace.vcard4 || !VCard4Reader.read(property, into: &card, seen: &seen) {
                extras.append(property)
            }
        }
        fields = card
        self.extras = extras
    }

    /// The `<vcard/>` element: mapped properties in RFC 6350 order, then the extras as they came.
    public var element: XMLElement {
        var v = XMLElement("vcard", namespace: Namespace.vcard4)
        for property in VCard4Writer.properties(of: fields) { v.append(property) }
        for extra in extras { v.append(extra) }
        return v
    }
}
