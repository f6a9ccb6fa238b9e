import XMLTree

/// Writes `VCard` values as vCard 3.0 (RFC 2426): text escaped, lines folded at 75 octets,
/// CRLF line ends. `VCFReader` reads the output back to an equal card, extras included as long
/// as they are simple text elements (others have no vCard 3.0 form and are left out).
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
    static func lines(_ card: VCard) -> [String] {
        let e = VCFText.escape
        var lines = ["BEGIN:VCARD", "VERSION:3.0"]
        // FN and N are required in 3.0; an empty value stands for "not set".
        lines.append("FN:" + e(card.fullName ?? ""))
        let n = card.name
        lines.append("N:" + [n.family, n.given, n.middle, n.prefix, n.suffix].map { e($0 ?? "") }.joined(separator: ";"))
        if let v = card.nickname { lines.append("NICKNAME:" + e(v)) }
        if let photo = card.photo {
            if let data = photo.compactBase64 {
                var line = "PHOTO;ENCODING=b"
                if let type = photoType(photo.type) { line += ";TYPE=" + type }
                lines.append(line + ":" + data)
            } else if let url = photo.externalURL {
                var line = "PHOTO;VALUE=uri"
                if let type = photoType(photo.type) { line += ";TYPE=" + type }
                lines.append(line + ":" + VCFText.uri(url))
            }
        }
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
            // IMPP is a URI and is not escaped: text that a URI cannot carry goes in an escaped JABBERID.
            let uriSafe = !v.unicodeScalars.contains { $0 == "\\" || $0 == "\n" || $0 == "\r" }
                && v.trimmingWhitespace() == v
            lines.append(uriSafe ? "IMPP:xmpp:" + v : "JABBERID:" + e(v))
        }
        if let v = card.title { lines.append("TITLE:" + e(v)) }
        if let v = card.role { lines.append("ROLE:" + e(v)) }
        if !card.organization.isEmpty {
            let org = [card.organization.name ?? ""] + card.organization.units
            lines.append("ORG:" + org.map(e).joined(separator: ";"))
        }
        if let v = card.note { lines.append("NOTE:" + e(v)) }
        if let v = card.url { lines.append("URL:" + VCFText.uri(v)) }
        for extra in card.extras {
            if let line = extraLine(extra) { lines.append(line) }
        }
        lines.append("END:VCARD")
        return lines
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

    /// A simple text element (`<TZ>+01:00</TZ>`) as `TZ:+01:00`; CATEGORIES from its KEYWORDs.
    static func extraLine(_ e: XMLElement) -> String? {
        guard e.namespace == Namespace.vcardTemp, e.attributes.isEmpty, VCFContentLine.isName(e.name) else { return nil }
        let name = e.name.uppercased()
        if name == "CATEGORIES", !e.elements.isEmpty {
            let keywords = e.elements.filter { $0.name == "KEYWORD" }.map { VCFText.escape($0.text) }
            return keywords.isEmpty ? nil : "CATEGORIES:" + keywords.joined(separator: ",")
        }
        guard e.elements.isEmpty, !["BEGIN", "END", "VERSION"].contains(name) else { return nil }
        return name + ":" + VCFText.escape(e.text)
    }
}
