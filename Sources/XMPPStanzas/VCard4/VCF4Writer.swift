import XMLTree

/// Writes a profile as a vCard 4.0 file (RFC 6350): the mapped fields as XEP-0292 publishes
/// them, the photo as a `data:` URI, every property of the vCard4 node that no field maps
/// (GENDER, ANNIVERSARY, LANG, X-…, converted from xCard by `XCardText`), and the vcard-temp
/// elements that 4.0 has a form for and the vCard4 node does not already hold under that name.
/// `VCFReader` reads the file back to the same fields; `losses` names what it cannot carry.
public enum VCF4Writer {
    /// vcard-temp elements of vCard 3.0 that 4.0 removed (LABEL became an ADR parameter).
    static let removedIn4: Set<String> = ["LABEL", "AGENT", "CLASS", "MAILER", "NAME", "PROFILE", "SORT-STRING"]

    /// One card as a complete `BEGIN:VCARD … END:VCARD` block: `card` (a merged profile) and
    /// `vcard4Extras` (the vCard4 node's unmapped properties).
    public static func write(_ card: VCard, vcard4Extras: [XMLElement]) -> String {
        var out = ""
        for line in lines(card, vcard4Extras: vcard4Extras).lines { VCFText.fold(line, into: &out) }
        return out
    }

    /// What `write` cannot carry: values of `card` missing when the file is read back, and
    /// vCard4 properties with no text form (attributes, other namespaces, control characters).
    public static func losses(_ card: VCard, vcard4Extras: [XMLElement]) -> [VCardLoss] {
        let (_, refused) = lines(card, vcard4Extras: vcard4Extras)
        var out = refused.map { VCardLoss(field: $0.name.uppercased(), value: VCFContentLine.excerpt($0.text)) }
        do { out += card.losses(comparedTo: try VCFReader.read(write(card, vcard4Extras: vcard4Extras)).first?.card ?? VCard()) } catch {
            out.append(VCardLoss(field: "vCard", value: "the written file does not read back (\(error))"))
        }
        return out
    }

    static func lines(_ card: VCard, vcard4Extras: [XMLElement]) -> (lines: [String], refused: [XMLElement]) {
        var mapped = VCard4.mappable(card)
        mapped.emails = card.emails.map { VCard.Email(address: $0.address, types: $0.types) }
        // A field the node also holds in a form it does not map (an FN with its ALTID forms) is written once, in that form.
        // A set of (name, values): searching the extras for every property was O(N²).
        let inExtras = Set(vcard4Extras.map { [$0.name] + values($0) })
        let properties = VCard4Writer.properties(of: mapped, droppedEmailTypes: []).filter { p in
            !inExtras.contains([p.name] + values(p))
        }
        var (lines, refused) = XCardText.lines(of: properties)
        let extras = vcard4Extras.filter { card.photo == nil || $0.name.lowercased() != "photo" }
        // FN is required in 4.0; an empty one reads back as "not set".
        if !properties.contains(where: { $0.name == "fn" }) && !extras.contains(where: { $0.name == "fn" }) { lines.insert("FN:", at: 0) }
        if let photo = card.photo, let line = photoLine(photo) { lines.append(line) }
        let (extraLines, extraRefused) = XCardText.lines(of: extras)
        lines += extraLines
        refused += extraRefused
        let held = Set(vcard4Extras.map { $0.name.uppercased() })
        for e in card.extras where !held.contains(e.name.uppercased()) && !removedIn4.contains(e.name.uppercased()) {
            if let line = e.name.uppercased() == "GEO" ? geoLine(e) : VCFWriter.extraLine(e, depth: 0) { lines.append(line) }
        }
        return (["BEGIN:VCARD", "VERSION:4.0"] + lines + ["END:VCARD"], refused)
    }

    /// The texts of a property's value elements (not its parameters).
    static func values(_ property: XMLElement) -> [String] {
        property.elements.filter { $0.name != "parameters" }.map(\.text)
    }

    /// `PHOTO:data:image/png;base64,…` or `PHOTO;MEDIATYPE=…:URI`; nil when it holds neither.
    static func photoLine(_ photo: VCard.Photo) -> String? {
        let type = photo.type.flatMap(VCFReader.mediaType)
        if let data = photo.compactBase64 { return "PHOTO:data:" + (type ?? "") + ";base64," + data }
        if let url = photo.externalURL { return "PHOTO" + (type.map { ";MEDIATYPE=" + $0 } ?? "") + ":" + VCFText.uri(url) }
        return nil
    }

    /// vcard-temp's `<GEO><LAT/><LON/></GEO>` as RFC 5870's `geo:` URI.
    static func geoLine(_ e: XMLElement) -> String? {
        guard let lat = e.child("LAT")?.text.trimmingWhitespace(), let lon = e.child("LON")?.text.trimmingWhitespace(),
              !lat.isEmpty, !lon.isEmpty, !(lat + lon).contains(",") else { return VCFStructured.line(e, depth: 0) }
        return "GEO:" + VCFText.uri("geo:" + lat + "," + lon)
    }
}
