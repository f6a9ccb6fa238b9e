import XMLTree

/// RFC 6351 properties → `VCard` fields, one property at a time.
enum VCard4Reader {
    /// Single-valued text properties and their value element.
    static let scalars: [String: (value: String, field: VCardField)] = [
        "fn": ("text", .fullname), "nickname": ("text", .nickname), "title": ("text", .title),
        "role": ("text", .role), "note": ("text", .note), "url": ("uri", .url),
    ]

    /// Reads `property` into `card`; false when it belongs in the extras.
    static func read(_ property: XMLElement, into card: inout VCard, seen: inout Set<String>) -> Bool {
        guard property.attributes.isEmpty else { return false }
        // nbxmpp (Gajim) writes an empty `<parameters/>` into every property: no parameters at all.
        var property = property
        property.children.removeAll { node in
            guard case .element(let e) = node else { return false }
            return e.name == "parameters" && e.namespace == Namespace.vcard4 && e.attributes.isEmpty && e.elements.isEmpty
                && VCard.isBlank(e.text)
        }
        let name = property.name
        // `<fn><text/></fn>` and the like (Prosody writes them for absent fields): nothing.
        if isBlankProperty(property) { return true }
        if let (valueName, field) = scalars[name] {
            guard !seen.contains(name), noParameters(property), let text = onlyValue(property, valueName) else { return false }
            seen.insert(name)
            field.set(text, in: &card)
            return true
        }
        switch name {
        case "n":
            guard !seen.contains(name), noParameters(property), let n = self.name(property) else { return false }
            seen.insert(name)
            card.name = n
        case "bday":
            guard !seen.contains(name), noParameters(property), let text = dateValue(property) else { return false }
            seen.insert(name)
            card.birthday = VCard4Date.vcardTemp(text)
        case "org":
            guard !seen.contains(name), noParameters(property) else { return false }
            let parts = property.elements
            guard !parts.isEmpty, parts.allSatisfy({ isLeaf($0, "text") }) else { return false }
            seen.insert(name)
            let texts = parts.map(\.text)
            card.organization = VCard.Organization(name: texts[0].isEmpty ? nil : texts[0],
                                                   units: texts.dropFirst().filter { !$0.isEmpty })
        case "impp":
            guard !seen.contains(name), noParameters(property), let uri = onlyValue(property, "uri"),
                  let jid = XMPPURI.jid(uri) else { return false }
            seen.insert(name)
            card.jabberID = jid
        case "email":
            guard let types = listTypes(property), let text = onlyValue(property, "text") else { return false }
            card.emails.append(VCard.Email(address: text, types: types))
        case "tel":
            guard let types = listTypes(property) else { return false }
            if let uri = onlyValue(property, "uri") {
                guard uri.lowercased().hasPrefix("tel:") else { return false }
                card.phones.append(VCard.Phone(number: String(uri.dropFirst(4)), types: types))
            } else if let text = onlyValue(property, "text") {
                card.phones.append(VCard.Phone(number: text, types: types))
            } else {
                return false
            }
        case "adr":
            guard let types = listTypes(property), let address = self.address(property, types: types) else { return false }
            card.addresses.append(address)
        default:
            return false
        }
        return true
    }

    /// A property without parameters whose every value element is an empty leaf.
    static func isBlankProperty(_ property: XMLElement) -> Bool {
        !property.elements.isEmpty && VCard.isBlank(property.text)
            && property.elements.allSatisfy { $0.name != "parameters" && $0.elements.isEmpty && $0.attributes.isEmpty && VCard.isBlank($0.text) }
    }

    /// The text of the one value element `valueName` (besides `<parameters/>`); nil otherwise or when blank.
    static func onlyValue(_ property: XMLElement, _ valueName: String) -> String? {
        let values = property.elements.filter { $0.name != "parameters" }
        guard values.count == 1, isLeaf(values[0], valueName) else { return nil }
        let text = values[0].text
        return VCard.isBlank(text) ? nil : text
    }

    /// A date-ish value: `date`, `date-and-or-time`, `date-time` or `text`.
    static func dateValue(_ property: XMLElement) -> String? {
        for valueName in ["date", "date-and-or-time", "date-time", "text"] {
            if let text = onlyValue(property, valueName) { return text }
        }
        return nil
    }

    static func isLeaf(_ e: XMLElement, _ name: String) -> Bool {
        e.name == name && e.namespace == Namespace.vcard4 && e.attributes.isEmpty && e.elements.isEmpty
    }

    static func noParameters(_ property: XMLElement) -> Bool {
        property.child("parameters", namespace: Namespace.vcard4) == nil
    }

    /// The type flags of a list property (`type` texts, lowercased, and `pref` when `pref` is
    /// 1); nil when it has other parameters, which only the whole property keeps.
    static func listTypes(_ property: XMLElement) -> [String]? {
        let parameters = property.children("parameters", namespace: Namespace.vcard4)
        guard parameters.count <= 1 else { return nil }
        guard let p = parameters.first else { return [] }
        guard p.attributes.isEmpty else { return nil }
        var types: [String] = []
        for parameter in p.elements {
            guard parameter.namespace == Namespace.vcard4, parameter.attributes.isEmpty else { return nil }
            switch parameter.name {
            case "type":
                for t in parameter.elements {
                    guard isLeaf(t, "text"), !VCard.isBlank(t.text) else { return nil }
                    let flag = t.text.lowercased()
                    if !types.contains(flag) { types.append(flag) }
                }
            case "pref":
                guard parameter.elements.count == 1, isLeaf(parameter.elements[0], "integer"),
                      parameter.elements[0].text == "1" else { return nil }
                if !types.contains("pref") { types.append("pref") }
            default:
                return nil
            }
        }
        return types
    }

    /// `<n/>` with at most one of each component, each a plain leaf.
    static func name(_ n: XMLElement) -> VCard.Name? {
        var parts: [String: String] = [:]
        for part in n.elements {
            guard ["surname", "given", "additional", "prefix", "suffix"].contains(part.name),
                  isLeaf(part, part.name), parts[part.name] == nil else { return nil }
            parts[part.name] = part.text
        }
        func value(_ key: String) -> String? {
            guard let t = parts[key], !VCard.isBlank(t) else { return nil }
            return t
        }
        return VCard.Name(family: value("surname"), given: value("given"), middle: value("additional"),
                          prefix: value("prefix"), suffix: value("suffix"))
    }

    /// `<adr/>` with at most one of each component, each a plain leaf.
    static func address(_ adr: XMLElement, types: [String]) -> VCard.Address? {
        var parts: [String: String] = [:]
        let names = ["pobox", "ext", "street", "locality", "region", "code", "country"]
        for part in adr.elements where part.name != "parameters" {
            guard names.contains(part.name), isLeaf(part, part.name), parts[part.name] == nil else { return nil }
            parts[part.name] = part.text
        }
        func value(_ key: String) -> String? {
            guard let t = parts[key], !VCard.isBlank(t) else { return nil }
            return t
        }
        return VCard.Address(poBox: value("pobox"), extended: value("ext"), street: value("street"),
                             locality: value("locality"), region: value("region"), code: value("code"),
                             country: value("country"), types: types)
    }
}

/// RFC 6350 §4.3 dates ↔ the `YYYY-MM-DD` XEP-0054 wants.
enum VCard4Date {
    /// `19850412` (RFC 6350's basic form) → `1985-04-12`; anything else as written.
    static func vcardTemp(_ text: String) -> String {
        let s = Array(text.utf8)
        guard s.count == 8, s.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return text }
        return String(decoding: s[0..<4], as: UTF8.self) + "-" + String(decoding: s[4..<6], as: UTF8.self) + "-"
            + String(decoding: s[6..<8], as: UTF8.self)
    }

    /// `1985-04-12` → `19850412`; anything else as written.
    static func vcard4(_ text: String) -> String {
        let s = Array(text.utf8)
        guard s.count == 10, s[4] == 0x2D, s[7] == 0x2D else { return text }
        let digits = Array(s[0..<4] + s[5..<7] + s[8..<10])
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return text }
        return String(decoding: digits, as: UTF8.self)
    }
}
