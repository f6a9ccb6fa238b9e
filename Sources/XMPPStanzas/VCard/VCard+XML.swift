import XMLTree

/// XEP-0054 §3: reading and writing `<vCard xmlns='vcard-temp'/>`.
extension VCard {
    /// Reads a `<vCard xmlns='vcard-temp'/>` element. Parsing is total: anything it does not model
    /// (unknown elements, attributes, a second NICKNAME, an EMAIL without USERID) lands in `extras`.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("vCard")
        guard element.namespace == Namespace.vcardTemp else {
            throw .invalidAttribute(element: "vCard", attribute: "xmlns", value: element.namespace ?? "")
        }
        self.init()
        var seen: Set<String> = []
        var desc: XMLElement?
        for child in element.elements {
            if child.namespace != Namespace.vcardTemp || !read(child, seen: &seen) {
                if child.name == "DESC", child.namespace == Namespace.vcardTemp, desc == nil, VCard.leafText(child) != nil {
                    desc = child
                    continue
                }
                extras.append(child)
            }
        }
        // DESC is the note only when there is no NOTE; otherwise it is kept as it came.
        if let desc {
            if note == nil { note = VCard.leafText(desc) } else { extras.append(desc) }
        }
    }

    /// Reads one known child into its field; false when it belongs in `extras`.
    private mutating func read(_ child: XMLElement, seen: inout Set<String>) -> Bool {
        let single: [String: WritableKeyPath<VCard, String?>] = [
            "FN": \.fullName, "NICKNAME": \.nickname, "BDAY": \.birthday, "TITLE": \.title, "ROLE": \.role,
            "URL": \.url, "NOTE": \.note, "JABBERID": \.jabberID,
        ]
        if let path = single[child.name] {
            if child.elements.isEmpty, child.attributes.isEmpty, VCard.isBlank(child.text) { return true }
            guard !seen.contains(child.name), let text = VCard.leafText(child) else { return false }
            seen.insert(child.name)
            self[keyPath: path] = text
            return true
        }
        switch child.name {
        case "VERSION": return true
        case "N":
            guard !seen.contains("N"), child.attributes.isEmpty else { return false }
            seen.insert("N")
            name = VCard.name(from: child)
        case "ORG":
            guard !seen.contains("ORG"), child.attributes.isEmpty else { return false }
            seen.insert("ORG")
            organization = VCard.organization(from: child)
        case "PHOTO":
            guard !seen.contains("PHOTO"), child.attributes.isEmpty else { return false }
            seen.insert("PHOTO")
            photo = VCard.photo(from: child)
        case "EMAIL":
            guard child.attributes.isEmpty, let (address, types, extras) = VCard.entry(child, valueName: "USERID") else { return false }
            emails.append(Email(address: address, types: types, extras: extras))
        case "TEL":
            guard child.attributes.isEmpty, let (number, types, extras) = VCard.entry(child, valueName: "NUMBER") else { return false }
            phones.append(Phone(number: number, types: types, extras: extras))
        case "ADR":
            guard child.attributes.isEmpty else { return false }
            addresses.append(VCard.address(from: child))
        default:
            return false
        }
        return true
    }

    /// The `<vCard/>` element for this value, in XEP-0054 order; extras come last, as they came.
    public var element: XMLElement {
        var v = XMLElement("vCard", namespace: Namespace.vcardTemp)
        v.appendLeaf("FN", fullName)
        if !name.isEmpty { v.append(VCard.element(of: name)) }
        v.appendLeaf("NICKNAME", nickname)
        if let photo { v.append(VCard.element(of: photo, named: "PHOTO")) }
        v.appendLeaf("BDAY", birthday)
        for a in addresses {
            var e = XMLElement("ADR", namespace: Namespace.vcardTemp)
            a.types.forEach { e.appendFlag($0) }
            let names = ["POBOX", "EXTADD", "STREET", "LOCALITY", "REGION", "PCODE", "CTRY"]
            for (name, value) in zip(names, a.components) { e.appendLeaf(name, value) }
            a.extras.forEach { e.append($0) }
            v.append(e)
        }
        for t in phones { v.append(VCard.entryElement("TEL", valueName: "NUMBER", value: t.number, types: t.types, extras: t.extras)) }
        for m in emails { v.append(VCard.entryElement("EMAIL", valueName: "USERID", value: m.address, types: m.types, extras: m.extras)) }
        v.appendLeaf("JABBERID", jabberID)
        v.appendLeaf("TITLE", title)
        v.appendLeaf("ROLE", role)
        if !organization.isEmpty { v.append(VCard.element(of: organization)) }
        v.appendLeaf("NOTE", note)
        v.appendLeaf("URL", url)
        extras.forEach { v.append($0) }
        return v
    }

    /// `<N/>` of a name.
    static func element(of name: Name) -> XMLElement {
        var n = XMLElement("N", namespace: Namespace.vcardTemp)
        n.appendLeaf("FAMILY", name.family)
        n.appendLeaf("GIVEN", name.given)
        n.appendLeaf("MIDDLE", name.middle)
        n.appendLeaf("PREFIX", name.prefix)
        n.appendLeaf("SUFFIX", name.suffix)
        name.extras.forEach { n.append($0) }
        return n
    }

    /// `<PHOTO/>` (or `<LOGO/>`, which XEP-0054 builds the same way) of a photo.
    static func element(of photo: Photo, named elementName: String) -> XMLElement {
        var p = XMLElement(elementName, namespace: Namespace.vcardTemp)
        p.appendLeaf("TYPE", photo.type)
        p.appendLeaf("BINVAL", photo.base64)
        p.appendLeaf("EXTVAL", photo.externalURL)
        photo.extras.forEach { p.append($0) }
        return p
    }

    /// `<ORG/>` of an organisation.
    static func element(of organization: Organization) -> XMLElement {
        var o = XMLElement("ORG", namespace: Namespace.vcardTemp)
        o.appendLeaf("ORGNAME", organization.name)
        organization.units.forEach { o.appendLeaf("ORGUNIT", $0) }
        organization.extras.forEach { o.append($0) }
        return o
    }

    /// The card as one XML document (for the cache).
    public var xml: String { element.serialized() }

    /// Reads a card from `xml` (as `xml` writes it).
    public init(xml: String) throws(StanzaParseError) {
        let root: XMLElement
        do { root = try parseXMLDocument(xml) } catch { throw .invalidContent("invalid vCard XML: \(error)") }
        try self.init(element: root)
    }
}

// MARK: - Pieces

extension VCard {
    /// The text of a leaf element (no child elements, no attributes), nil when blank.
    static func leafText(_ e: XMLElement) -> String? {
        guard e.elements.isEmpty, e.attributes.isEmpty, !isBlank(e.text) else { return nil }
        return e.text
    }

    static func isBlank(_ s: String) -> Bool { s.unicodeScalars.allSatisfy(isXMLSpace) }

    /// A flag is an empty element without attributes: `<WORK/>`.
    static func isFlag(_ e: XMLElement) -> Bool {
        e.namespace == Namespace.vcardTemp && e.children.isEmpty && e.attributes.isEmpty
    }

    /// Splits `EMAIL`/`TEL` into value, flags and extras; nil when there is no usable value.
    static func entry(_ e: XMLElement, valueName: String) -> (String, [String], [XMLElement])? {
        var value: String?
        var types: [String] = []
        var extras: [XMLElement] = []
        for c in e.elements {
            if c.name == valueName, c.namespace == Namespace.vcardTemp, value == nil, let text = leafText(c) {
                value = text
            } else if isFlag(c) && c.name != valueName {
                types.append(c.name.lowercased())
            } else {
                extras.append(c)
            }
        }
        guard let value else { return nil }
        return (value, types, extras)
    }

    static func entryElement(_ name: String, valueName: String, value: String, types: [String], extras: [XMLElement]) -> XMLElement {
        var e = XMLElement(name, namespace: Namespace.vcardTemp)
        types.forEach { e.appendFlag($0) }
        e.appendLeaf(valueName, value)
        extras.forEach { e.append($0) }
        return e
    }

    /// Reads the named parts of a compound element; what is not named goes to extras.
    static func parts(_ e: XMLElement, names: Set<String>, flags: Bool) -> (values: [String: String], types: [String], extras: [XMLElement]) {
        var values: [String: String] = [:]
        var types: [String] = []
        var extras: [XMLElement] = []
        for c in e.elements {
            if c.namespace == Namespace.vcardTemp, names.contains(c.name), values[c.name] == nil,
               c.elements.isEmpty, c.attributes.isEmpty {
                if let text = leafText(c) { values[c.name] = text }
                // an empty named part is "not set"
            } else if flags && isFlag(c) {
                types.append(c.name.lowercased())
            } else {
                extras.append(c)
            }
        }
        return (values, types, extras)
    }

    static func name(from e: XMLElement) -> Name {
        let p = parts(e, names: ["FAMILY", "GIVEN", "MIDDLE", "PREFIX", "SUFFIX"], flags: false)
        return Name(family: p.values["FAMILY"], given: p.values["GIVEN"], middle: p.values["MIDDLE"],
                    prefix: p.values["PREFIX"], suffix: p.values["SUFFIX"], extras: p.extras)
    }

    static func organization(from e: XMLElement) -> Organization {
        var org = Organization()
        for c in e.elements {
            if c.namespace == Namespace.vcardTemp, c.name == "ORGNAME", org.name == nil, let text = leafText(c) {
                org.name = text
            } else if c.namespace == Namespace.vcardTemp, c.name == "ORGUNIT", let text = leafText(c) {
                org.units.append(text)
            } else if c.namespace == Namespace.vcardTemp, c.name == "ORGNAME" || c.name == "ORGUNIT", c.children.isEmpty, c.attributes.isEmpty {
                continue
            } else {
                org.extras.append(c)
            }
        }
        return org
    }

    static func photo(from e: XMLElement) -> Photo? {
        let p = parts(e, names: ["TYPE", "BINVAL", "EXTVAL"], flags: false)
        let photo = Photo(type: p.values["TYPE"], base64: p.values["BINVAL"], externalURL: p.values["EXTVAL"], extras: p.extras)
        return photo == Photo() ? nil : photo
    }

    static func address(from e: XMLElement) -> Address {
        let p = parts(e, names: ["POBOX", "EXTADD", "STREET", "LOCALITY", "REGION", "PCODE", "CTRY"], flags: true)
        let v = p.values
        return Address(poBox: v["POBOX"], extended: v["EXTADD"], street: v["STREET"], locality: v["LOCALITY"],
                       region: v["REGION"], code: v["PCODE"], country: v["CTRY"], types: p.types, extras: p.extras)
    }
}

extension XMLElement {
    /// Appends `<NAME>text</NAME>` in vcard-temp when `text` is set.
    mutating func appendLeaf(_ name: String, _ text: String?) {
        guard let text else { return }
        // No empty text node: parsed XML has none, and the two must compare equal.
        append(XMLElement(name, namespace: Namespace.vcardTemp, children: text.isEmpty ? [] : [.text(text)]))
    }

    /// Appends a type flag such as `<WORK/>`.
    mutating func appendFlag(_ type: String) {
        append(XMLElement(type.uppercased(), namespace: Namespace.vcardTemp))
    }
}
