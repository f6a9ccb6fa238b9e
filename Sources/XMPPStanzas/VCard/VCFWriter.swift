import XMLTree

/// Writes `VCard` values as vCard 3.0 (RFC 2426): text escaped, lines folded at 75 octets,
/// CRLF line ends. `VCFReader` reads the output back to an equal card, extras included: simple
/// text elements as `NAME:text`, XEP-0054's structured ones (GEO, LABEL, KEY, LOGO, SOUND,
/// AGENT, CLASS, a second N, ORG or PHOTO) in their vCard form. What has no vCard 3.0 form
/// (an element with attributes or in another namespace, PRODID and REV, which name the program
/// and time of the card's writing) is left out, and `losses` names it.
public enum VCFWriter {
    /// One card as a complete `BEGIN:VCARD … END:VCARD` block.
    public static func write(_ card: VCard) -> String {
        var out = ""
        for line in lines(card) { VCFText.fold(line, into: &out) }
        return out
    }

    /// Several cards, one after another (a valid multi-card .vcf file).
    public static func write(_ cards: [VCard]) -> String { cards.map(write).joined() }

    /// The unfolded content lines of `card`.
    /// What `write` cannot carry: every value of `card` that is missing when the file is read back.
    public static func losses(_ card: VCard) -> [VCardLoss] {
        do { return card.losses(comparedTo: try VCFReader.read(write(card)).first?.card ?? VCard()) } catch {
            return [VCardLoss(field: "vCard", value: "the written file does not read back (\(error))")]
        }
    }

    static func lines(_ card: VCard, depth: Int = 0) -> [String] {
        let e = VCFText.escape
        var lines = ["BEGIN:VCARD", "VERSION:3.0"]
        // FN and N are required in 3.0; an empty value stands for "not set".
        lines.append("FN:" + e(card.fullName ?? ""))
        let n = card.name
        lines.append(nameLine(n))
        if let v = card.nickname { lines.append("NICKNAME:" + e(v)) }
        if let photo = card.photo, let line = photoLine(photo, property: "PHOTO") { lines.append(line) }
        if let v = card.birthday { lines.append("BDAY:" + e(v)) }
        for a in card.addresses {
            lines.append("ADR" + typeParameter(a.types) + ":" + a.components.map { e($0 ?? "") }.joined(separator: ";"))
        }
        for t in card.phones {
            // The reader drops one `tel:` (4.0 writes numbers as URIs): a number that starts with it gets another.
            let number = t.number.lowercased().hasPrefix("tel:") ? "tel:" + t.number : t.number
            lines.append("TEL" + typeParameter(t.types) + ":" + e(number))
        }
        for m in card.emails { lines.append("EMAIL" + typeParameter(m.types) + ":" + e(m.address)) }
        if let v = card.jabberID {
            // IMPP is a URI and is not escaped: the JID is percent-encoded (RFC 5122), which also
            // keeps a line break or backslash in it from reaching the file.
            lines.append("IMPP:" + XMPPURI.string(v))
        }
        if let v = card.title { lines.append("TITLE:" + e(v)) }
        if let v = card.role { lines.append("ROLE:" + e(v)) }
        if !card.organization.isEmpty { lines.append(organizationLine(card.organization)) }
        if let v = card.note { lines.append("NOTE:" + e(v)) }
        if let v = card.url { lines.append("URL:" + VCFText.uri(v)) }
        for extra in card.extras {
            if let line = extraLine(extra, depth: depth) { lines.append(line) }
        }
        lines.append("END:VCARD")
        return lines
    }

    /// `N:family;given;middle;prefix;suffix`.
    static func nameLine(_ n: VCard.Name) -> String {
        "N:" + [n.family, n.given, n.middle, n.prefix, n.suffix].map { VCFText.escape($0 ?? "") }.joined(separator: ";")
    }

    /// `ORG:name;unit;unit`.
    static func organizationLine(_ org: VCard.Organization) -> String {
        "ORG:" + ([org.name ?? ""] + org.units).map(VCFText.escape).joined(separator: ";")
    }

    /// PHOTO or LOGO: embedded (`ENCODING=b`) or linked (`VALUE=uri`); nil when it holds neither.
    static func photoLine(_ photo: VCard.Photo, property: String) -> String? {
        let type = photoType(photo.type).map { ";TYPE=" + $0 } ?? ""
        if let data = photo.compactBase64 { return property + ";ENCODING=b" + type + ":" + data }
        if let url = photo.externalURL { return property + ";VALUE=uri" + type + ":" + VCFText.uri(url) }
        return nil
    }

    /// `;TYPE=work,voice`, or nothing.
    static func typeParameter(_ types: [String]) -> String {
        types.isEmpty ? "" : ";TYPE=" + types.joined(separator: ",")
    }

    /// The 3.0 TYPE of a photo: `image/png` → `PNG`; another valid media type as it is
    /// (`/` and the other RFC 6838 name characters are safe in a parameter value).
    static func photoType(_ mime: String?) -> String? {
        guard let mime, let type = VCFReader.mediaType(mime) else { return nil }
        return type.hasPrefix("image/") ? String(type.dropFirst(6)).uppercased() : type
    }

    /// A simple text element (`<TZ>+01:00</TZ>`) as `TZ:+01:00`; CATEGORIES from its KEYWORDs;
    /// the structured ones as `VCFStructured` writes them.
    static func extraLine(_ e: XMLElement, depth: Int) -> String? {
        guard e.namespace == Namespace.vcardTemp, e.attributes.isEmpty, VCFContentLine.isName(e.name) else { return nil }
        let name = e.name.uppercased()
        guard !["PRODID", "REV"].contains(name) else { return nil }
        if !e.elements.isEmpty, name != "CATEGORIES" { return VCFStructured.line(e, depth: depth) }
        if name == "CATEGORIES", !e.elements.isEmpty {
            let keywords = e.elements.filter { $0.name == "KEYWORD" }.map { VCFText.escape($0.text) }
            return keywords.isEmpty ? nil : "CATEGORIES:" + keywords.joined(separator: ",")
        }
        guard e.elements.isEmpty, !["BEGIN", "END", "VERSION"].contains(name) else { return nil }
        // A repeated URL, and an IMPP of another scheme than xmpp:, are URIs as the reader took
        // them, so they are written as URIs and read back the same way.
        if name == "URL" || name == "IMPP" { return name + ":" + VCFText.uri(e.text) }
        return name + ":" + VCFText.escape(e.text)
    }
}
