import XMLTree

/// The vCard properties that XEP-0054 gives a structure of elements rather than text: GEO
/// (LAT, LON), LABEL (flags, LINEs), KEY (TYPE, CRED), LOGO (like PHOTO), SOUND (PHONETIC,
/// BINVAL or EXTVAL), AGENT (an embedded vCard or EXTVAL) and CLASS (a flag), read from a
/// content line into that structure and written back to one.
enum VCFStructured {
    /// Property names read here.
    static let names: Set<String> = ["GEO", "LABEL", "KEY", "LOGO", "SOUND", "AGENT", "CLASS"]
    /// How deep AGENT vCards may nest inside each other, reading and writing.
    static let maxAgentDepth = 3

    /// What one property becomes: an element, nothing (an empty value), or dropped for a reason.
    enum Reading: Equatable {
        case element(XMLElement)
        case empty
        case dropped(String)
    }

    // MARK: Reading

    /// The XEP-0054 element of a structured property; `warnings` gets what an embedded card drops
    /// and a LOGO whose Base64 was completed (`wholeImage`, as for PHOTO).
    static func read(_ line: VCFContentLine, depth: Int, wholeImage: VCFReader.WholeImage?, warnings: inout [String]) -> Reading {
        switch line.name {
        case "GEO": return geo(line)
        case "LABEL": return label(line)
        case "KEY": return key(line)
        case "LOGO":
            switch VCFReader.photo(line, wholeImage: wholeImage) {
            case .empty: return .empty
            case .unusable(let reason): return .dropped(reason)
            case .photo(let logo, let note):
                if let note { warnings.append(note) }
                return .element(VCard.element(of: logo, named: "LOGO"))
            }
        case "SOUND": return sound(line)
        case "AGENT": return agent(line, depth: depth, wholeImage: wholeImage, warnings: &warnings)
        default: return classification(line)
        }
    }

    /// `GEO:37.386013;-122.082932` (3.0) or `GEO:geo:37.386013,-122.082932` (4.0, RFC 5870).
    static func geo(_ line: VCFContentLine) -> Reading {
        let value = line.value.trimmingWhitespace()
        guard !value.isEmpty else { return .empty }
        var parts: [String]
        if value.lowercased().hasPrefix("geo:") {
            let body = value.dropFirst(4).split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            // An altitude has no place in vcard-temp's GEO.
            if parts.count == 3, isCoordinate(parts[2].trimmingWhitespace(), limit: .infinity) { parts.removeLast() }
        } else {
            parts = VCFText.split(value, on: ";").map { VCFText.unescape($0) }
            if parts.count == 1 { parts = VCFText.split(value, on: ",").map { VCFText.unescape($0) } }
        }
        parts = parts.map { $0.trimmingWhitespace() }
        guard parts.count == 2, isCoordinate(parts[0], limit: 90), isCoordinate(parts[1], limit: 180) else {
            return .dropped("not a latitude and a longitude")
        }
        var e = XMLElement("GEO", namespace: Namespace.vcardTemp)
        e.appendLeaf("LAT", parts[0])
        e.appendLeaf("LON", parts[1])
        return .element(e)
    }

    /// A decimal number (`-122.082932`, `+1`, `.5`) of at most `limit` in size.
    static func isCoordinate(_ s: String, limit: Double) -> Bool {
        var digits = 0
        var dots = 0
        for (i, c) in s.unicodeScalars.enumerated() {
            if (c == "-" || c == "+") && i == 0 { continue }
            if c == "." { dots += 1; continue }
            guard c.isASCII, ("0"..."9").contains(c) else { return false }
            digits += 1
        }
        guard digits > 0, dots <= 1, digits <= 20, let number = Double(s.hasPrefix("+") ? String(s.dropFirst()) : s) else { return false }
        return abs(number) <= limit
    }

    /// `LABEL;TYPE=home:1 Main St\nSpringfield` → flags and one LINE per line.
    static func label(_ line: VCFContentLine) -> Reading {
        var e = XMLElement("LABEL", namespace: Namespace.vcardTemp)
        VCFReader.types(line, reserved: ["line"]).forEach { e.appendFlag($0) }
        let lines = VCFText.unescape(line.value).split(separator: "\n").map(String.init).filter { !VCard.isBlank($0) }
        guard !lines.isEmpty else { return .empty }
        lines.forEach { e.appendLeaf("LINE", $0) }
        return .element(e)
    }

    /// `KEY;TYPE=PGP:…`, `KEY;ENCODING=b;TYPE=X509:…` (3.0) or `KEY:data:application/pgp-keys;base64,…` (4.0).
    static func key(_ line: VCFContentLine) -> Reading {
        let value = line.value.trimmingWhitespace()
        guard !value.isEmpty else { return .empty }
        var type = (line.values(of: "TYPE") + line.values(of: "MEDIATYPE")).map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty && $0.uppercased() != "BASE64" }.joined(separator: ",")
        let credential: String
        if VCFReader.isBinary(line) {
            guard VCFReader.isBase64(value) else { return .dropped("not valid Base64") }
            credential = VCFReader.compact(value)
        } else if value.lowercased().hasPrefix("data:"), let comma = value.firstIndex(of: ",") {
            let header = value[value.index(value.startIndex, offsetBy: 5)..<comma].split(separator: ";")
            let data = String(value[value.index(after: comma)...])
            guard header.contains(where: { $0.lowercased() == "base64" }), VCFReader.isBase64(data) else {
                return .dropped("a data: URI that is not Base64")
            }
            if let media = header.first, media.contains("/") { type = String(media) }
            credential = VCFReader.compact(data)
        } else {
            credential = VCFText.unescape(line.value)
        }
        guard !VCard.isBlank(credential) else { return .empty }
        var e = XMLElement("KEY", namespace: Namespace.vcardTemp)
        e.appendLeaf("TYPE", type.isEmpty ? nil : type)
        e.appendLeaf("CRED", credential)
        return .element(e)
    }

    /// `SOUND;VALUE=text:` a phonetic spelling; `ENCODING=b` or a data: URI, the sound itself; a URI, a link to it.
    static func sound(_ line: VCFContentLine) -> Reading {
        let value = line.value.trimmingWhitespace()
        guard !value.isEmpty else { return .empty }
        var e = XMLElement("SOUND", namespace: Namespace.vcardTemp)
        let kind = line.values(of: "VALUE").first?.lowercased()
        if kind == "text" {
            e.appendLeaf("PHONETIC", VCFText.unescape(line.value))
        } else if VCFReader.isBinary(line) || value.lowercased().hasPrefix("data:") {
            switch VCFReader.photo(line, wholeImage: nil) {
            case .photo(let sound, _) where sound.base64 != nil: e.appendLeaf("BINVAL", sound.base64)
            case .unusable(let reason): return .dropped(reason)
            default: return .dropped("not valid Base64")
            }
        } else if kind == "uri" || kind == "url" || looksLikeURI(value), let uri = VCFReader.uriValue(line.value) {
            e.appendLeaf("EXTVAL", uri)
        } else {
            e.appendLeaf("PHONETIC", VCFText.unescape(line.value))
        }
        return .element(e)
    }

    /// `AGENT:BEGIN:VCARD\nFN:…\nEND:VCARD` (an escaped vCard inside the value) or `AGENT;VALUE=uri:…`.
    static func agent(_ line: VCFContentLine, depth: Int, wholeImage: VCFReader.WholeImage?, warnings: inout [String]) -> Reading {
        let kind = line.values(of: "VALUE").first?.lowercased()
        let text = VCFText.unescape(line.value).trimmingWhitespace()
        guard !text.isEmpty else { return .empty }
        var e = XMLElement("AGENT", namespace: Namespace.vcardTemp)
        if kind != "uri", kind != "url", text.uppercased().hasPrefix("BEGIN:VCARD") {
            guard depth < maxAgentDepth else { return .dropped("a vCard nested deeper than \(maxAgentDepth) AGENTs") }
            let entries: [VCFReader.Entry]
            do { entries = try VCFReader.read(Array(text.utf8), depth: depth + 1, wholeImage: wholeImage) } catch {
                return .dropped("its embedded vCard cannot be read: its \(error)")
            }
            guard entries.count == 1 else { return .dropped("\(entries.count) vCards in one AGENT") }
            warnings += entries[0].warnings.map { "line \(line.line): in the AGENT's vCard, " + $0 }
            e.append(entries[0].card.element)
        } else if let uri = VCFReader.uriValue(line.value), kind == "uri" || kind == "url" || looksLikeURI(uri) {
            e.appendLeaf("EXTVAL", uri)
        } else {
            return .dropped("neither a vCard nor a URI")
        }
        return .element(e)
    }

    /// `CLASS:PUBLIC` → `<CLASS><PUBLIC/></CLASS>`; another class is kept as text.
    static func classification(_ line: VCFContentLine) -> Reading {
        let text = VCFText.unescape(line.value)
        guard !VCard.isBlank(text) else { return .empty }
        let word = text.trimmingWhitespace().uppercased()
        var e = XMLElement("CLASS", namespace: Namespace.vcardTemp)
        if ["PUBLIC", "PRIVATE", "CONFIDENTIAL"].contains(word) { e.appendFlag(word) } else { e.append(text: text) }
        return .element(e)
    }

    /// `scheme:rest` with an RFC 3986 scheme and no spaces.
    static func looksLikeURI(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), colon != s.startIndex, s.index(after: colon) != s.endIndex else { return false }
        let scheme = s[..<colon].unicodeScalars
        guard let first = scheme.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
            && !s.unicodeScalars.contains { $0 == " " || $0 == "\t" }
    }

    // MARK: Writing

    /// The content line of a structured vcard-temp element kept in `extras`; nil when it does
    /// not have the structure XEP-0054 gives it (the caller names it as not written).
    static func line(_ e: XMLElement, depth: Int) -> String? {
        let esc = VCFText.escape
        switch e.name {
        case "GEO":
            guard let p = parts(e, allowed: ["LAT", "LON"]), let lat = p.values["LAT"], let lon = p.values["LON"], p.flags.isEmpty else { return nil }
            return "GEO:" + esc(lat) + ";" + esc(lon)
        case "LABEL":
            guard let p = parts(e, allowed: ["LINE"], repeated: true), !p.lines.isEmpty else { return nil }
            return "LABEL" + VCFWriter.typeParameter(p.flags.map { $0.lowercased() }) + ":" + p.lines.map(esc).joined(separator: "\\n")
        case "KEY":
            guard let p = parts(e, allowed: ["TYPE", "CRED"]), let cred = p.values["CRED"], p.flags.isEmpty else { return nil }
            return "KEY" + (p.values["TYPE"].map { ";TYPE=" + quotedParameter($0) } ?? "") + ":" + esc(cred)
        case "LOGO", "PHOTO":
            guard let photo = VCard.photo(from: e), photo.extras.isEmpty else { return nil }
            return VCFWriter.photoLine(photo, property: e.name)
        case "N":
            let name = VCard.name(from: e)
            guard name.extras.isEmpty else { return nil }
            return VCFWriter.nameLine(name)
        case "ORG":
            let org = VCard.organization(from: e)
            guard org.extras.isEmpty, !org.isEmpty else { return nil }
            return VCFWriter.organizationLine(org)
        case "SOUND":
            guard let p = parts(e, allowed: ["PHONETIC", "BINVAL", "EXTVAL"]), p.values.count == 1, p.flags.isEmpty else { return nil }
            if let text = p.values["PHONETIC"] { return "SOUND;VALUE=text:" + esc(text) }
            if let data = p.values["BINVAL"] {
                guard VCFReader.isBase64(data) else { return nil }
                return "SOUND;ENCODING=b:" + VCFReader.compact(data)
            }
            return p.values["EXTVAL"].map { "SOUND;VALUE=uri:" + VCFText.uri($0) }
        case "AGENT":
            let children = e.elements
            guard children.count == 1, VCard.isBlank(e.text), let child = children.first else { return nil }
            if child.name == "EXTVAL", let uri = VCard.leafText(child) { return "AGENT;VALUE=uri:" + VCFText.uri(uri) }
            guard depth < maxAgentDepth, let card = try? VCard(element: child) else { return nil }
            return "AGENT:" + esc(VCFWriter.lines(card, depth: depth + 1).joined(separator: "\n"))
        case "CLASS":
            let children = e.elements
            guard children.count == 1, let flag = children.first, VCard.isFlag(flag), VCard.isBlank(e.text),
                  VCFContentLine.isName(flag.name) else { return nil }
            return "CLASS:" + flag.name
        default:
            return nil
        }
    }

    /// The parts of a compound element: leaf values by name (`LINE`s, when `repeated`, in order) and
    /// flags; nil when it holds anything else (text beside elements, attributes, nesting, a repeated part).
    private static func parts(_ e: XMLElement, allowed: Set<String>, repeated: Bool = false)
        -> (values: [String: String], lines: [String], flags: [String])?
    {
        guard VCard.isBlank(e.text) else { return nil }
        var values: [String: String] = [:]
        var lines: [String] = []
        var flags: [String] = []
        for c in e.elements {
            guard c.namespace == Namespace.vcardTemp, c.attributes.isEmpty else { return nil }
            if allowed.contains(c.name), let text = VCard.leafText(c) {
                if repeated { lines.append(text); continue }
                guard values[c.name] == nil else { return nil }
                values[c.name] = text
            } else if VCard.isFlag(c), !allowed.contains(c.name), VCFContentLine.isName(c.name) {
                flags.append(c.name)
            } else {
                return nil
            }
        }
        return (values, lines, flags)
    }

    /// A parameter value in double quotes, with RFC 6868's `^^`, `^'` and `^n`.
    static func quotedParameter(_ value: String) -> String {
        var out = "\""
        for s in value.unicodeScalars {
            switch s {
            case "^": out += "^^"
            case "\"": out += "^'"
            case "\n", "\r": out += "^n"
            default: out.unicodeScalars.append(s)
            }
        }
        return out + "\""
    }
}
