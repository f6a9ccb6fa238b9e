import XMLTree

/// Reads .vcf files, vCard 3.0 (RFC 2426) and 4.0 (RFC 6350) and the 2.1 that phones still
/// write (quoted-printable, CHARSET, bare TYPE words, BASE64 photos), into `VCard` values.
/// Total: a file whose structure is broken (size, BEGIN/END, VERSION, UTF-8) is a `VCFError`
/// naming its line; a property whose value cannot be used (damaged Base64, broken
/// quoted-printable, unreadable parameters, a BDAY that is no date) is left out, and control
/// characters are taken out of the property holding them, each said in `warnings` with its line.
/// Properties without a vcard-temp field become simple elements in `extras`
/// (`TZ:+01:00` → `<TZ>+01:00</TZ>`), so they survive an import.
public enum VCFReader {
    /// The largest input accepted.
    public static let maxBytes = 8 << 20

    /// Whether the image in canonical padded Base64 decodes whole: asked of a PHOTO or LOGO whose
    /// Base64 was cut short, which is used, repaired, only when it does. Without one, such a photo is left out.
    public typealias WholeImage = (_ base64: String) -> Bool

    /// One card and the line its BEGIN:VCARD is on.
    public struct Entry: Sendable, Equatable {
        /// The card.
        public var card: VCard
        /// The line of its BEGIN:VCARD.
        public var line: Int
        /// What was dropped while reading it, one sentence each, naming the line.
        public var warnings: [String] = []
        /// The same drops as values (`PRODID`, a second `FN` of one ALTID…), for reports.
        public var dropped: [VCardLoss] = []
        /// A VERSION:4.0 card as RFC 6351 xCard: every property as the file has it, the ones
        /// `card` does not map too, for the vCard4 node; nil for 2.1 and 3.0. VERSION, PRODID
        /// and REV are left out (they describe the file), and so are groups (`item1.`).
        public var xcard: XMLElement?
        /// What `card` (vcard-temp) cannot hold of a 4.0 card but `xcard` does: another ALTID form,
        /// a GEO with an altitude. Not in `dropped`: the profile as a whole keeps it.
        public var keptInVCard4Only: [VCardLoss] = []

        /// The file named the person (FN or N) but every such property was left out: importing
        /// the card would replace the account's name with none.
        public var identityLeftOut: Bool {
            card.fullName == nil && card.name.isEmpty && dropped.contains { $0.field == "FN" || $0.field == "N" }
        }
    }

    /// A card being read.
    struct Open {
        var entry: Entry
        /// The check a cut-short photo must pass to be used.
        let wholeImage: WholeImage?
        var version = false
        /// `NAME ALTID` of the properties read so far, and their lines: RFC 6350 §5.4 forms of one value.
        var alternatives: [String: Int] = [:]
        /// The VERSION value, and the content lines, for a 4.0 card's xCard.
        var versionValue = ""
        var lines: [VCFContentLine] = []

        mutating func drop(_ line: VCFContentLine, value: String, because reason: String) {
            let shown = VCFContentLine.excerpt(value)
            // A 4.0 card's xCard holds every property but these: what vcard-temp cannot, it still has.
            if versionValue == "4.0", !["PRODID", "REV"].contains(line.name), XCardText.property(line) != nil {
                entry.warnings.append("line \(line.line): vcard-temp leaves out \(line.name) '\(shown)' (\(reason)); the vCard4 node keeps it")
                entry.keptInVCard4Only.append(VCardLoss(field: line.name, value: shown))
                return
            }
            entry.warnings.append("line \(line.line): left out \(line.name) '\(shown)' (\(reason))")
            entry.dropped.append(VCardLoss(field: line.name, value: shown))
        }

        /// A property whose value cannot be used: left out of the card and of a 4.0 card's
        /// xCard too (it was added last, before it was read), so no store gets it.
        mutating func leaveOut(_ line: VCFContentLine, value: String, because reason: String) {
            if lines.last?.line == line.line { lines.removeLast() }
            let shown = VCFContentLine.excerpt(value)
            entry.warnings.append("line \(line.line): left out \(line.name) '\(shown)' (\(reason))")
            entry.dropped.append(VCardLoss(field: line.name, value: shown))
        }
    }

    /// Every card in `bytes`, in order; at least one, or it throws. `wholeImage` decides whether
    /// a photo whose Base64 was cut short is used.
    public static func read(_ bytes: [UInt8], wholeImage: WholeImage? = nil) throws(VCFError) -> [Entry] {
        try read(bytes, depth: 0, wholeImage: wholeImage)
    }

    /// Every card in `bytes`, inside `depth` AGENT properties.
    static func read(_ bytes: [UInt8], depth: Int, wholeImage: WholeImage?) throws(VCFError) -> [Entry] {
        guard bytes.count <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        var entries: [Entry] = []
        var current: Open?
        for line in try VCFContentLine.lines(in: bytes) {
            if ["BEGIN", "END", "VERSION"].contains(line.name), let problem = line.problem ?? (line.controls.isEmpty ? nil : line.controlsLabel) {
                // The lines that give the file its structure are not guessed at.
                throw .malformed(line: line.line, reason: "\(line.name): \(problem)")
            }
            // A line of nothing but control characters outside a card is as blank as an empty one.
            if current == nil, line.name.isEmpty, line.value.isEmpty, !line.controls.isEmpty { continue }
            let isBegin = line.name == "BEGIN" && line.value.uppercased() == "VCARD"
            let isEnd = line.name == "END" && line.value.uppercased() == "VCARD"
            guard var open = current else {
                guard isBegin else {
                    throw .malformed(line: line.line, reason: "expected BEGIN:VCARD, found \(line.name)")
                }
                current = Open(entry: Entry(card: VCard(), line: line.line), wholeImage: wholeImage)
                continue
            }
            // The only reference: appending to a copy `current` still shared copied every array
            // of the card at every line, O(N²) in the lines (issue 26).
            current = nil
            if isBegin { throw .malformed(line: line.line, reason: "BEGIN:VCARD inside the vCard begun on line \(open.entry.line)") }
            if isEnd {
                // An AGENT's vCard goes by its card's version (RFC 2426 §3.5.4's example has no VERSION).
                guard open.version || depth > 0 else {
                    throw .malformed(line: open.entry.line, reason: "the vCard begun here has no VERSION line (add VERSION:3.0 after BEGIN:VCARD)")
                }
                if open.versionValue == "4.0" { open.entry.xcard = XCardText.element(of: open.lines) }
                entries.append(open.entry)
                current = nil
                continue
            }
            if line.name == "VERSION" {
                open.version = true
                open.versionValue = line.value.trimmingWhitespace()
            }
            if !["VERSION", "PRODID", "REV", ""].contains(line.name) { open.lines.append(line) }
            try apply(line, to: &open, depth: depth)
            current = open
        }
        if let open = current {
            throw .malformed(line: open.entry.line, reason: "the vCard begun here has no END:VCARD")
        }
        guard !entries.isEmpty else { throw .noCard }
        return entries
    }

    /// Every card in `text`.
    public static func read(_ text: String, wholeImage: WholeImage? = nil) throws(VCFError) -> [Entry] {
        try read(Array(text.utf8), wholeImage: wholeImage)
    }

    /// Puts one property into the card being read; what it drops goes to its warnings, and so
    /// do control characters taken out of a property that is kept.
    static func apply(_ raw: VCFContentLine, to open: inout Open, depth: Int) throws(VCFError) {
        guard !raw.name.isEmpty else {
            if raw.value.isEmpty {
                open.entry.warnings.append("line \(raw.line): dropped a line of nothing but \(raw.controlsLabel)")
            } else {
                open.entry.warnings.append("line \(raw.line): dropped '\(raw.value)' (not a vCard property name)")
                open.entry.dropped.append(VCardLoss(field: "?", value: raw.value))
            }
            return
        }
        if let problem = raw.problem { return open.leaveOut(raw, value: raw.value, because: problem) }
        let line: VCFContentLine
        switch VCF21.decoded(raw) {
        case .line(let decoded): line = decoded
        case .unusable(let reason): return open.leaveOut(raw, value: raw.value, because: reason)
        }
        if !line.controls.isEmpty, VCard.isBlank(VCFText.unescape(line.value)) {
            return open.leaveOut(line, value: "", because: "nothing but \(line.controlsLabel)")
        }
        let losses = open.entry.dropped.count + open.entry.keptInVCard4Only.count
        try applyProperty(line, to: &open, depth: depth)
        if !line.controls.isEmpty, open.entry.dropped.count + open.entry.keptInVCard4Only.count == losses {
            open.entry.warnings.append("line \(line.line): dropped \(line.controlsLabel) from \(line.name); the rest of it is kept")
        }
    }

    /// `apply` for a property read as 3.0 text.
    private static func applyProperty(_ line: VCFContentLine, to open: inout Open, depth: Int) throws(VCFError) {
        let text = VCFText.unescape(line.value)
        // RFC 6350 §5.4: properties sharing an ALTID are one value in other forms (languages, scripts); vcard-temp holds one.
        if let altID = line.values(of: "ALTID").first {
            let key = line.name + " " + altID
            if let first = open.alternatives[key] {
                open.drop(line, value: text, because: "ALTID \(altID) is another form of the \(line.name) on line \(first), which is kept")
                return
            }
            open.alternatives[key] = line.line
        }
        // Blank is absent, as in the XML form (VCard(element:)): the two must agree on every card.
        let nonEmpty: String? = VCard.isBlank(text) ? nil : text
        // Taken out, not copied: a copy the entry still shared was duplicated at every append.
        var card = open.entry.card
        open.entry.card = VCard()
        defer { open.entry.card = card }
        /// The first value goes in the field, a repeated one (two TITLEs) in extras, as VCard(element:) keeps it.
        func single(_ path: WritableKeyPath<VCard, String?>, _ value: String?) {
            guard let value else { return }
            if card[keyPath: path] == nil { card[keyPath: path] = value } else { card.extras.append(simple(line.name, value)) }
        }
        switch line.name {
        case "VERSION":
            let version = line.value.trimmingWhitespace()
            guard version == "2.1" || version == "3.0" || version == "4.0" else {
                throw .malformed(line: line.line, reason: "unsupported vCard version '\(VCFContentLine.excerpt(version))' (2.1, 3.0 and 4.0 are read)")
            }
        case "PRODID", "REV":
            if let value = nonEmpty {
                let what = line.name == "PRODID" ? "the program that wrote the file" : "when the file was written"
                open.drop(line, value: value, because: "it names \(what), not the person")
            }
        case "BEGIN", "END":
            // BEGIN:VCARD and END:VCARD never get here; anything else (BEGIN:VCALENDAR, END:VCARDS) is no property.
            throw .malformed(line: line.line, reason: "\(line.name):\(VCFContentLine.excerpt(line.value)) inside a vCard (expected END:VCARD)")
        case "FN": single(\.fullName, nonEmpty)
        case "N":
            let c = VCFText.components(line.value, count: 5)
            let name = VCard.Name(family: c[0], given: c[1], middle: c[2], prefix: c[3], suffix: c[4])
            if card.name.isEmpty { card.name = name } else if !name.isEmpty { card.extras.append(VCard.element(of: name)) }
        case "NICKNAME": single(\.nickname, nonEmpty)
        case "BDAY":
            let date = nonEmpty.map(normalizedDate)
            if let date, CalendarDate.parts(date) != nil, !CalendarDate.isValid(date) {
                return open.leaveOut(line, value: date, because: "no calendar date")
            }
            single(\.birthday, date)
        case "TITLE": single(\.title, nonEmpty)
        case "ROLE": single(\.role, nonEmpty)
        case "NOTE": single(\.note, nonEmpty)
        case "URL": single(\.url, uriValue(line.value))
        case "ORG":
            let c = VCFText.components(line.value)
            let org = VCard.Organization(name: c.first ?? nil, units: c.dropFirst().compactMap { $0 })
            if card.organization.isEmpty { card.organization = org } else if !org.isEmpty { card.extras.append(VCard.element(of: org)) }
        case "EMAIL":
            if let address = nonEmpty { card.emails.append(VCard.Email(address: address, types: types(line, reserved: ["userid"]))) }
        case "TEL":
            var number = text
            if number.lowercased().hasPrefix("tel:") { number = String(number.dropFirst(4)) }
            if !VCard.isBlank(number) { card.phones.append(VCard.Phone(number: number, types: types(line, reserved: ["number"]))) }
        case "ADR":
            let c = VCFText.components(line.value, count: 7)
            card.addresses.append(VCard.Address(poBox: c[0], extended: c[1], street: c[2], locality: c[3], region: c[4],
                                                code: c[5], country: c[6], types: types(line, reserved: addressParts)))
        case "IMPP", "X-JABBER", "JABBERID":
            // IMPP is a URI (only xmpp: ones are the JID); JABBERID and X-JABBER hold the JID as text.
            var uri = text
            if line.name == "IMPP" {
                guard let value = uriValue(line.value) else { return }
                guard let jid = XMPPURI.jid(value) else {
                    // Kept as the URI it was read as (not as unescaped text), so the writer's
                    // IMPP line reads back to this same other-scheme URI and never becomes the JID.
                    card.extras.append(simple(line.name, value))
                    return
                }
                uri = jid
            }
            guard !VCard.isBlank(uri) else { return }
            if card.jabberID == nil { card.jabberID = uri } else { card.extras.append(simple("JABBERID", uri)) }
        case "PHOTO":
            let photo: VCard.Photo
            switch self.photo(line, wholeImage: open.wholeImage) {
            case .empty: return
            case .unusable(let reason): return open.leaveOut(line, value: line.value, because: reason)
            case .photo(let read, let note):
                photo = read
                if let note { open.entry.warnings.append(note) }
            }
            if card.photo == nil { card.photo = photo } else { card.extras.append(VCard.element(of: photo, named: "PHOTO")) }
        case "CATEGORIES":
            var e = XMLElement("CATEGORIES", namespace: Namespace.vcardTemp)
            for keyword in VCFText.split(line.value, on: ",") where !VCard.isBlank(VCFText.unescape(keyword)) { e.appendLeaf("KEYWORD", VCFText.unescape(keyword)) }
            if !e.elements.isEmpty { card.extras.append(e) }
        case _ where VCFStructured.names.contains(line.name):
            var warnings = open.entry.warnings
            open.entry.warnings = []  // one reference, so appending does not copy them all
            let reading = VCFStructured.read(line, depth: depth, wholeImage: open.wholeImage, warnings: &warnings)
            open.entry.warnings = warnings
            switch reading {
            case .element(let e): card.extras.append(e)
            case .empty: break
            case .dropped(let reason): open.drop(line, value: text, because: reason)
            }
        default:
            guard let first = line.name.unicodeScalars.first, first.properties.isAlphabetic else {
                open.drop(line, value: text, because: "a name that cannot start an XML element")
                return
            }
            card.extras.append(simple(line.name, text))
        }
    }

    private static func simple(_ name: String, _ text: String) -> XMLElement {
        XMLElement(name, namespace: Namespace.vcardTemp, children: text.isEmpty ? [] : [.text(text)])
    }

    /// The vcard-temp part names of ADR: a type flag named like one (`<STREET/>`) would read back as an empty part.
    static let addressParts: Set<String> = ["pobox", "extadd", "street", "locality", "region", "pcode", "ctry"]

    /// TYPE values (comma lists split, lowercased) plus `pref` for a 4.0 PREF parameter;
    /// words that cannot be XML names, and `reserved` ones (the names of the entry's own
    /// vcard-temp parts, such as TEL's NUMBER), are left out.
    static func types(_ line: VCFContentLine, reserved: Set<String> = []) -> [String] {
        var result: [String] = []
        for value in line.values(of: "TYPE") {
            for word in value.split(separator: ",") {
                let t = String(word).trimmingWhitespace().lowercased()
                if VCFContentLine.isName(t), t.unicodeScalars.first?.properties.isAlphabetic == true, !reserved.contains(t),
                   !result.contains(t) {
                    result.append(t)
                }
            }
        }
        if !line.values(of: "PREF").isEmpty, !result.contains("pref") { result.append("pref") }
        return result
    }

    /// What a PHOTO (or LOGO, SOUND) line holds: nothing, a photo (with a note when its Base64
    /// was repaired), or a reason it cannot be used.
    enum PhotoReading: Equatable {
        case empty
        case photo(VCard.Photo, note: String?)
        case unusable(String)
    }

    /// `PHOTO`: 3.0 `ENCODING=b;TYPE=PNG:…`, 4.0 `data:image/png;base64,…`, or a URI.
    static func photo(_ line: VCFContentLine, wholeImage: WholeImage?) -> PhotoReading {
        let value = line.value.trimmingWhitespace()
        guard !value.isEmpty else { return .empty }
        if isBinary(line) {
            return binary(line, value, wholeImage: wholeImage) { VCard.Photo(type: declaredMediaType(line), base64: $0) }
        }
        if value.lowercased().hasPrefix("data:") {
            guard let comma = value.firstIndex(of: ",") else { return .unusable("a data: URI without a comma") }
            let header = value[value.index(value.startIndex, offsetBy: 5)..<comma]
            let data = String(value[value.index(after: comma)...])
            let parts = header.split(separator: ";")
            guard parts.contains(where: { $0.lowercased() == "base64" }) else { return .unusable("a data: URI that is not Base64") }
            let type = parts.first.flatMap { $0.contains("/") ? mediaType(String($0)) : nil }
            return binary(line, data, wholeImage: wholeImage) { VCard.Photo(type: type, base64: $0) }
        }
        return .photo(VCard.Photo(type: declaredMediaType(line), externalURL: uriValue(value)), note: nil)
    }

    /// Base64 image data: used as it is when valid; when only cut short (its length not a
    /// multiple of 4: padding lost, or the last group short), used repaired if the image decodes
    /// whole from what is there, and left out otherwise, saying which.
    private static func binary(_ line: VCFContentLine, _ data: String, wholeImage: WholeImage?,
                               _ photo: (String) -> VCard.Photo) -> PhotoReading {
        if isBase64(data) { return .photo(photo(compact(data)), note: nil) }
        let characters = compact(data).unicodeScalars.count
        guard let repaired = cutShortBase64(data) else { return .unusable("not valid Base64") }
        let cut = "Base64 is cut short (\(characters) characters, not a multiple of 4)"
        // Only an image can be checked whole: a cut SOUND is never guessed at.
        guard ["PHOTO", "LOGO"].contains(line.name), let wholeImage, wholeImage(repaired) else {
            return .unusable("its \(cut) and the image does not decode whole from what is there")
        }
        return .photo(photo(repaired), note: "line \(line.line): \(line.name)'s \(cut), but the image decodes whole from what "
            + "is there, so it is kept, its Base64 completed")
    }

    /// `s` as canonical padded Base64 when it is Base64 whose length is not a multiple of 4 (its
    /// padding missing or its last group cut short): a last lone character, which holds no whole
    /// byte, is dropped and the unused bits of the last one cleared. Nil for anything else.
    static func cutShortBase64(_ s: String) -> String? {
        var c = Array(compact(s).unicodeScalars)
        while c.last == "=" { c.removeLast() }
        guard c.allSatisfy(isBase64Letter) else { return nil }
        if c.count % 4 == 1 { c.removeLast() }
        guard !c.isEmpty else { return nil }
        if let last = c.last, let index = base64Letters.firstIndex(of: last) {
            // 2 characters left in the group carry 1 byte (4 bits spare), 3 carry 2 bytes (2 spare).
            let spare = c.count % 4 == 2 ? 0b1111 : c.count % 4 == 3 ? 0b11 : 0
            c[c.count - 1] = base64Letters[index & ~spare]
        }
        let padding = (4 - c.count % 4) % 4
        return String(String.UnicodeScalarView(c)) + String(repeating: "=", count: padding)
    }

    private static let base64Letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".unicodeScalars)

    private static func isBase64Letter(_ ch: Unicode.Scalar) -> Bool {
        ch.isASCII && (ch.properties.isAlphabetic || ("0"..."9").contains(ch) || ch == "+" || ch == "/")
    }

    /// `ENCODING=b` (3.0), `ENCODING=BASE64`, or a bare `BASE64` (2.1, and Apple's Address Book in 3.0 files).
    static func isBinary(_ line: VCFContentLine) -> Bool {
        line.values(of: "ENCODING").contains { ["b", "base64"].contains($0.lowercased()) }
            || line.values(of: "TYPE").contains { $0.uppercased() == "BASE64" }
    }

    /// The photo's media type from `TYPE` (3.0) or `MEDIATYPE` (4.0), if valid; a bare BASE64 is no type.
    static func declaredMediaType(_ line: VCFContentLine) -> String? {
        (line.values(of: "TYPE") + line.values(of: "MEDIATYPE")).lazy.filter { $0.uppercased() != "BASE64" }.compactMap(mediaType).first
    }

    /// A URI value: not escaped by the RFCs, but some writers escape ':' ',' ';' anyway, and
    /// only those escapes are undone (a JID may hold a literal backslash, XEP-0106).
    static func uriValue(_ raw: String) -> String? {
        let result = XCardText.unescapeURI(raw).trimmingWhitespace()
        return result.isEmpty ? nil : result
    }

    /// `JPEG` → `image/jpeg`, `image/PNG` → `image/png`; nil for anything that is not a media
    /// type (RFC 6838 §4.2 names), so a photo never carries a type no one can write back.
    static func mediaType(_ t: String) -> String? {
        let parts = t.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        let full = parts.count == 1 ? ["image", parts[0]] : parts
        guard full.count == 2, full.allSatisfy(isMediaTypeName) else { return nil }
        return full.joined(separator: "/")
    }

    /// RFC 6838 restricted-name: a letter or digit, then up to 126 of letters, digits and `!#$&-^_.+`.
    static func isMediaTypeName(_ name: Substring) -> Bool {
        let u = name.utf8
        guard let first = u.first, u.count <= 127, isAlnum(first) else { return false }
        return u.allSatisfy { isAlnum($0) || "!#$&-^_.+".utf8.contains($0) }
    }

    private static func isAlnum(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x61...0x7A).contains(b) || (0x41...0x5A).contains(b)
    }

    static func compact(_ s: String) -> String {
        String(s.unicodeScalars.filter { !VCard.isXMLSpace($0) })
    }

    /// Base64 alphabet, whitespace ignored, padding only at the end, length a multiple of 4.
    static func isBase64(_ s: String) -> Bool {
        let c = compact(s).unicodeScalars
        guard !c.isEmpty, c.count % 4 == 0 else { return false }
        var padding = 0
        for ch in c {
            if ch == "=" { padding += 1; continue }
            guard padding == 0, isBase64Letter(ch) else { return false }
        }
        return padding <= 2
    }

    /// `19960415` → `1996-04-15`; anything else is kept as written.
    static func normalizedDate(_ s: String) -> String {
        let u = Array(s.utf8)
        guard u.count == 8, u.allSatisfy({ (0x30...0x39).contains($0) }) else { return s }
        return String(decoding: u[0..<4], as: UTF8.self) + "-" + String(decoding: u[4..<6], as: UTF8.self) + "-"
            + String(decoding: u[6..<8], as: UTF8.self)
    }
}
