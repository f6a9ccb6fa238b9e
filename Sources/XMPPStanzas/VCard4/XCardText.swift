import XMLTree

/// One vCard 4.0 property between its text form (RFC 6350) and its XML form (RFC 6351 xCard),
/// so a .vcf 4.0 file reaches the vCard4 node with every property, and comes back from it.
///
/// Text → xCard is total: a value that does not split into the parts its type wants (an N with
/// eight components) becomes `<unknown>` holding the text as written, which goes back out as
/// written. xCard → text returns nil for what text cannot carry (attributes, elements of other
/// namespaces, a name that is no vCard name, a control character). Groups (`item1.TEL`) are
/// dropped on the way in, as the 3.0 reader drops them, so Apple's grouped properties still map.
public enum XCardText {
    /// RFC 6350 §6 (and RFC 6474, RFC 6715) default value types; any other property's is `unknown`.
    static let defaultTypes: [String: String] = [
        "source": "uri", "kind": "text", "xml": "text", "fn": "text", "n": "structured", "nickname": "text",
        "photo": "uri", "bday": "date-and-or-time", "anniversary": "date-and-or-time", "gender": "structured",
        "adr": "structured", "tel": "text", "email": "text", "impp": "uri", "lang": "language-tag", "tz": "text",
        "geo": "uri", "title": "text", "role": "text", "logo": "uri", "org": "text", "member": "uri",
        "related": "uri", "categories": "text", "note": "text", "prodid": "text", "rev": "timestamp",
        "sound": "uri", "uid": "uri", "clientpidmap": "structured", "url": "uri", "key": "uri", "fburl": "uri",
        "caladruri": "uri", "caluri": "uri", "birthplace": "text", "deathplace": "text",
        "deathdate": "date-and-or-time", "expertise": "text", "hobby": "text", "interest": "text",
        "org-directory": "uri",
    ]

    /// The components of the structured properties, in order; `fixed` ones always have all.
    static let components: [String: (names: [String], fixed: Bool)] = [
        "n": (["surname", "given", "additional", "prefix", "suffix"], true),
        "adr": (["pobox", "ext", "street", "locality", "region", "code", "country"], true),
        "gender": (["sex", "identity"], false),
        "clientpidmap": (["sourceid", "uri"], true),
    ]

    /// Text properties whose value is a comma list (RFC 6350 `text-list`).
    static let textLists: Set<String> = ["nickname", "categories"]

    /// RFC 6351 §4.3 parameter value types; any other parameter's is `unknown`.
    static let parameterTypes: [String: String] = [
        "language": "language-tag", "pref": "integer", "altid": "text", "pid": "text", "type": "text",
        "mediatype": "text", "calscale": "text", "sort-as": "text", "geo": "uri", "tz": "text", "label": "text",
        "index": "integer", "level": "text", "cc": "text",
    ]

    /// The value types RFC 6351 names; a VALUE parameter naming another is taken as `unknown`.
    static let valueTypes: Set<String> = [
        "text", "uri", "date", "time", "date-time", "date-and-or-time", "timestamp", "boolean", "integer",
        "float", "utc-offset", "language-tag",
    ]

    // MARK: text → xCard

    /// The `<vcard/>` of a card's content lines, in their order.
    static func element(of lines: [VCFContentLine]) -> XMLElement {
        var vcard = XMLElement("vcard", namespace: Namespace.vcard4)
        for line in lines { if let p = property(line) { vcard.append(p) } }
        return vcard
    }

    /// The xCard property of one content line (its group dropped); nil for a name that cannot
    /// start an XML element (`1X`), which the reader drops with a warning anyway.
    static func property(_ line: VCFContentLine) -> XMLElement? {
        let name = line.name.lowercased()
        // `<group/>` and `<parameters/>` are xCard's own structure, not properties.
        guard startsXMLName(name), name != "group", name != "parameters" else { return nil }
        var property = XMLElement(name, namespace: Namespace.vcard4)
        var valueType = defaultTypes[name] ?? "unknown"
        var parameters: [(name: String, values: [String])] = []
        for p in line.parameters {
            let pname = p.name.lowercased()
            guard startsXMLName(pname) else { continue }
            if pname == "value" {
                if let v = p.values.first?.lowercased() { valueType = valueTypes.contains(v) ? v : "unknown" }
                continue
            }
            // RFC 6350's own example quotes its TYPE lists (TYPE="work,voice"): the commas still separate.
            let values = pname == "type" ? p.values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } : p.values
            if let i = parameters.firstIndex(where: { $0.name == pname }) {
                parameters[i].values += values
            } else {
                parameters.append((pname, values))
            }
        }
        if !parameters.isEmpty {
            var element = XMLElement("parameters", namespace: Namespace.vcard4)
            for p in parameters {
                var parameter = XMLElement(p.name, namespace: Namespace.vcard4)
                let type = parameterTypes[p.name] ?? "unknown"
                for v in p.values { parameter.append(leaf(type, v)) }
                element.append(parameter)
            }
            property.append(element)
        }
        for value in values(of: line.value, type: valueType, property: name) { property.append(value) }
        return property
    }

    /// The value elements of a raw (still escaped) value of `type`.
    static func values(of raw: String, type: String, property: String) -> [XMLElement] {
        switch type {
        case "structured":
            guard let (names, fixed) = components[property] else { return [leaf("unknown", raw)] }
            var parts = VCFText.split(raw, on: ";")
            guard parts.count <= names.count else { return [leaf("unknown", raw)] }
            // GENDER:M; and GENDER:M are one value, as the writer drops empty trailing components.
            if !fixed { while parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() } }
            var out: [XMLElement] = []
            for (i, componentName) in names.enumerated() {
                guard i < parts.count else {
                    if fixed { out.append(leaf(componentName, "")) }
                    continue
                }
                for v in VCFText.split(String(parts[i]), on: ",") { out.append(leaf(componentName, VCFText.unescape(v))) }
            }
            return out
        case "text":
            if property == "org" { return VCFText.split(raw, on: ";").map { leaf("text", VCFText.unescape($0)) } }
            if textLists.contains(property) { return VCFText.split(raw, on: ",").map { leaf("text", VCFText.unescape($0)) } }
            return [leaf("text", VCFText.unescape(raw))]
        case "uri":
            return [leaf("uri", unescapeURI(raw))]
        case "date-and-or-time":
            // RFC 6350 §4.3.4: a time alone starts with T, which its xCard <time/> does not have.
            if raw.hasPrefix("T") { return [leaf("time", String(raw.dropFirst()))] }
            return [leaf(raw.contains("T") ? "date-time" : "date", raw)]
        default:
            return [leaf(type, raw)]
        }
    }

    // MARK: xCard → text

    /// The content lines of xCard properties (`<group/>` members prefixed with its name), and
    /// the properties text cannot carry.
    public static func lines(of properties: [XMLElement]) -> (lines: [String], refused: [XMLElement]) {
        var lines: [String] = []
        var refused: [XMLElement] = []
        for p in properties {
            if p.name == "group", p.namespace == Namespace.vcard4 {
                guard let name = p[attribute: "name"], VCFContentLine.isName(name), p.attributes.count == 1, VCard.isBlank(p.text) else {
                    refused.append(p)
                    continue
                }
                for member in p.elements {
                    if let line = line(of: member, group: name) { lines.append(line) } else { refused.append(member) }
                }
            } else if let line = line(of: p) {
                lines.append(line)
            } else {
                refused.append(p)
            }
        }
        return (lines, refused)
    }

    /// The unfolded content line of an xCard property (a `<group/>`'s members: `group.NAME`);
    /// nil when text cannot carry it.
    static func line(of property: XMLElement, group: String? = nil) -> String? {
        guard property.namespace == Namespace.vcard4, property.attributes.isEmpty, VCFContentLine.isName(property.name),
              VCard.isBlank(property.text) else { return nil }
        let name = property.name.lowercased()
        guard !["begin", "end", "version", "group", "parameters"].contains(name) else { return nil }
        var head = (group.map { $0.uppercased() + "." } ?? "") + name.uppercased()
        let values = property.elements.filter { $0.name != "parameters" }
        guard !values.isEmpty, values.allSatisfy({ $0.namespace == Namespace.vcard4 && $0.attributes.isEmpty && $0.elements.isEmpty }) else {
            return nil
        }
        let defaultType = defaultTypes[name] ?? "unknown"
        let valueNames = Set(values.map(\.name))
        var valueType = values[0].name
        let value: String
        if let (names, fixed) = components[name], defaultType == "structured", valueNames.isSubset(of: names) {
            // Components in their order; within one, the values in document order.
            var parts: [String] = []
            for componentName in names {
                parts.append(values.filter { $0.name == componentName }.map { VCFText.escape($0.text) }.joined(separator: ","))
            }
            if !fixed { while parts.count > 1, parts.last == "" { parts.removeLast() } }
            value = parts.joined(separator: ";")
            valueType = "structured"
        } else {
            guard valueNames.count == 1 else { return nil }
            let texts = values.map(\.text)
            switch valueType {
            case "text": value = texts.map(VCFText.escape).joined(separator: name == "org" ? ";" : ",")
            case "uri":
                guard texts.count == 1 else { return nil }
                value = VCFText.uri(texts[0])
            case "unknown":
                guard texts.count == 1 else { return nil }
                // Written as it came; a line break (from another client's XML) goes as the text escape.
                value = escapingLineBreaks(texts[0])
            case "time" where defaultType == "date-and-or-time":
                guard texts.count == 1 else { return nil }
                value = "T" + texts[0]
            default:
                guard valueTypes.contains(valueType) else { return nil }
                value = texts.joined(separator: ",")
            }
        }
        guard !value.unicodeScalars.contains(where: isControl) else { return nil }
        if let p = property.child("parameters", namespace: Namespace.vcard4) {
            guard let text = parameters(p) else { return nil }
            head += text
        }
        if !isImplied(valueType, by: defaultType, value: value) { head += ";VALUE=" + valueType }
        return head + ":" + value
    }

    /// True when a reader takes `value` for `valueType` without a VALUE parameter. A property
    /// of unknown type reads as `unknown`; one of a known type with an unknown value gets
    /// `VALUE=unknown`, which `property` reads back as such (no RFC names it, so others take it as text).
    static func isImplied(_ valueType: String, by defaultType: String, value: String) -> Bool {
        if valueType == defaultType || valueType == "structured" { return true }
        guard defaultType == "date-and-or-time" else { return false }
        // RFC 6350 §4.3.4: a time starts with T, a date-time holds one after the date, a date none.
        switch valueType {
        case "time": return true
        case "date-time": return value.contains("T") && !value.hasPrefix("T")
        case "date": return !value.contains("T")
        default: return false
        }
    }

    /// `;NAME=value,value…` for each parameter; values quoted where they hold a separator, with
    /// RFC 6868's caret escapes for quotes and line breaks.
    static func parameters(_ p: XMLElement) -> String? {
        guard p.attributes.isEmpty, VCard.isBlank(p.text) else { return nil }
        var out = ""
        for parameter in p.elements {
            let name = parameter.name.lowercased()
            // The value type is the value element's name: a VALUE parameter here says nothing more.
            if name == "value" { continue }
            guard parameter.namespace == Namespace.vcard4, parameter.attributes.isEmpty, VCFContentLine.isName(parameter.name),
                  VCard.isBlank(parameter.text), !parameter.elements.isEmpty else { return nil }
            var values: [String] = []
            for v in parameter.elements {
                guard v.attributes.isEmpty, v.elements.isEmpty, let text = parameterValue(v.text) else { return nil }
                values.append(text)
            }
            out += ";" + name.uppercased() + "=" + values.joined(separator: ",")
        }
        return out
    }

    static func parameterValue(_ text: String) -> String? {
        var plain = true
        var quoted = String.UnicodeScalarView()
        var previousCR = false
        for s in text.unicodeScalars {
            defer { previousCR = s == "\r" }
            switch s {
            case "^": quoted.append(contentsOf: "^^".unicodeScalars); plain = false
            case "\"": quoted.append(contentsOf: "^'".unicodeScalars); plain = false
            case "\r": quoted.append(contentsOf: "^n".unicodeScalars); plain = false
            case "\n": if !previousCR { quoted.append(contentsOf: "^n".unicodeScalars) }; plain = false
            case ";", ":", ",": quoted.append(s); plain = false
            default:
                if isControl(s) { return nil }
                quoted.append(s)
            }
        }
        return plain ? text : "\"" + String(quoted) + "\""
    }

    // MARK: helpers

    static func leaf(_ name: String, _ text: String) -> XMLElement {
        XMLElement(name, namespace: Namespace.vcard4, children: text.isEmpty ? [] : [.text(text)])
    }

    /// What `VCFText.uri` escaped: `\\` `\,` `\;` `\:` (3.0 writers escape the last three); other backslashes stay.
    static func unescapeURI(_ raw: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingBackslash = false
        for s in raw.unicodeScalars {
            if pendingBackslash {
                pendingBackslash = false
                if s != ":" && s != "," && s != ";" && s != "\\" { out.append("\\") }
                out.append(s)
            } else if s == "\\" {
                pendingBackslash = true
            } else {
                out.append(s)
            }
        }
        if pendingBackslash { out.append("\\") }
        return String(out)
    }

    /// CRLF, CR and LF as `\n`, the rest as it is.
    static func escapingLineBreaks(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for s in text.unicodeScalars {
            defer { previousCR = s == "\r" }
            if s == "\r" || (s == "\n" && !previousCR) { out.append(contentsOf: "\\n".unicodeScalars) } else if s != "\n" { out.append(s) }
        }
        return String(out)
    }

    static func startsXMLName(_ name: String) -> Bool { name.unicodeScalars.first?.properties.isAlphabetic == true }

    /// A scalar no content line may hold raw: C0 controls but tab, and DEL.
    static func isControl(_ s: Unicode.Scalar) -> Bool { (s.value < 0x20 && s != "\t") || s.value == 0x7F }
}
