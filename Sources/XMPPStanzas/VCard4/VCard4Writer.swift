import XMLTree

/// `VCard` fields → RFC 6351 properties, in RFC 6350 order.
enum VCard4Writer {
    /// `droppedEmailTypes`: the email type flags left out (vCard 4.0 has no `internet`; a .vcf
    /// file written for people keeps them, since 4.0 readers take unknown TYPE values).
    static func properties(of card: VCard, droppedEmailTypes: Set<String> = VCard4.droppedEmailTypes) -> [XMLElement] {
        var out: [XMLElement] = []
        if let fn = card.fullName { out.append(simple("fn", "text", fn)) }
        if !card.name.isEmpty {
            var n = XMLElement("n", namespace: Namespace.vcard4)
            let parts: [(String, String?)] = [("surname", card.name.family), ("given", card.name.given),
                                              ("additional", card.name.middle), ("prefix", card.name.prefix),
                                              ("suffix", card.name.suffix)]
            for (name, value) in parts { n.append(leaf(name, value ?? "")) }
            out.append(n)
        }
        if let nick = card.nickname { out.append(simple("nickname", "text", nick)) }
        if let bday = card.birthday { out.append(simple("bday", "date", VCard4Date.vcard4(bday))) }
        for a in card.addresses {
            var adr = XMLElement("adr", namespace: Namespace.vcard4)
            if let p = parameters(a.types) { adr.append(p) }
            let parts: [(String, String?)] = [("pobox", a.poBox), ("ext", a.extended), ("street", a.street),
                                              ("locality", a.locality), ("region", a.region), ("code", a.code),
                                              ("country", a.country)]
            for (name, value) in parts { adr.append(leaf(name, value ?? "")) }
            out.append(adr)
        }
        for p in card.phones {
            var tel = XMLElement("tel", namespace: Namespace.vcard4)
            if let params = parameters(p.types) { tel.append(params) }
            tel.append(leaf("uri", "tel:" + p.number))
            out.append(tel)
        }
        for e in card.emails {
            var email = XMLElement("email", namespace: Namespace.vcard4)
            if let params = parameters(e.types.filter { !droppedEmailTypes.contains($0) }) { email.append(params) }
            email.append(leaf("text", e.address))
            out.append(email)
        }
        if let jid = card.jabberID { out.append(simple("impp", "uri", XMPPURI.string(jid))) }
        if let title = card.title { out.append(simple("title", "text", title)) }
        if let role = card.role { out.append(simple("role", "text", role)) }
        if card.organization.name != nil || !card.organization.units.isEmpty {
            var org = XMLElement("org", namespace: Namespace.vcard4)
            org.append(leaf("text", card.organization.name ?? ""))
            for unit in card.organization.units { org.append(leaf("text", unit)) }
            out.append(org)
        }
        if let note = card.note { out.append(simple("note", "text", note)) }
        if let url = card.url { out.append(simple("url", "uri", url)) }
        return out
    }

    static func leaf(_ name: String, _ text: String) -> XMLElement {
        XMLElement(name, namespace: Namespace.vcard4, children: text.isEmpty ? [] : [.text(text)])
    }

    static func simple(_ name: String, _ valueName: String, _ text: String) -> XMLElement {
        XMLElement(name, namespace: Namespace.vcard4, children: [.element(leaf(valueName, text))])
    }

    /// `<parameters><type><text>…</text></type><pref><integer>1</integer></pref></parameters>`; nil without types.
    static func parameters(_ types: [String]) -> XMLElement? {
        guard !types.isEmpty else { return nil }
        var p = XMLElement("parameters", namespace: Namespace.vcard4)
        let plain = types.filter { $0 != "pref" }
        if !plain.isEmpty {
            var type = XMLElement("type", namespace: Namespace.vcard4)
            for t in plain { type.append(leaf("text", t)) }
            p.append(type)
        }
        if types.contains("pref") {
            p.append(XMLElement("pref", namespace: Namespace.vcard4, children: [.element(leaf("integer", "1"))]))
        }
        return p
    }
}
