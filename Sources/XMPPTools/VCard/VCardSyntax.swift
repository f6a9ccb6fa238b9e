import TextFormats
import XMPPStanzas

/// The one-line syntax of emails, phones and addresses on the command line, shared by `set`
/// (parsing) and `get` (printing), so that printed values can be given back:
/// `[TYPE[,TYPE…]:]VALUE`, and for addresses `STREET;LOCALITY;REGION;CODE;COUNTRY[;EXTENDED[;POBOX]]`.
enum VCardSyntax {
    /// `work,pref:alice@example.org` → (["work", "pref"], "alice@example.org"). A leading ':'
    /// means no types; a prefix that is not all letters, digits and commas is part of the value.
    static func splitTypes(_ text: String, known: [String], what: String, scheme: String) throws(ToolFailure) -> ([String], String) {
        if text.hasPrefix(":") { return ([], String(text.dropFirst())) }
        guard let colon = text.firstIndex(of: ":") else { return ([], text) }
        let prefix = text[..<colon].lowercased()
        let rest = String(text[text.index(after: colon)...])
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ",") }) else { return ([], text) }
        if prefix == scheme { return ([], rest) }
        var types: [String] = []
        for word in prefix.split(separator: ",").map(String.init) {
            guard known.contains(word) else {
                throw ToolFailure(.usage, "unknown \(what) type '\(word)' in '\(text)' (known: \(known.joined(separator: ", ")); "
                    + "start with ':' if the value itself contains ':')")
            }
            if !types.contains(word) { types.append(word) }
        }
        return (types, rest)
    }

    /// Parses `--email [TYPES:]ADDRESS`.
    static func email(_ text: String) throws(ToolFailure) -> VCard.Email {
        var (types, value) = try splitTypes(text, known: VCard.Email.knownTypes, what: "email", scheme: "mailto")
        if value.lowercased().hasPrefix("mailto:") { value = String(value.dropFirst(7)) }
        guard !value.isEmpty else { throw ToolFailure(.usage, "empty --email '\(text)'") }
        return VCard.Email(address: value, types: types)
    }

    /// Parses `--phone [TYPES:]NUMBER`.
    static func phone(_ text: String) throws(ToolFailure) -> VCard.Phone {
        var (types, value) = try splitTypes(text, known: VCard.Phone.knownTypes, what: "phone", scheme: "tel")
        if value.lowercased().hasPrefix("tel:") { value = String(value.dropFirst(4)) }
        guard !value.isEmpty else { throw ToolFailure(.usage, "empty --phone '\(text)'") }
        return VCard.Phone(number: value, types: types)
    }

    /// Parses `--address [TYPES:]STREET;LOCALITY;REGION;CODE;COUNTRY[;EXTENDED[;POBOX]]`.
    static func address(_ text: String) throws(ToolFailure) -> VCard.Address {
        let (types, value) = try splitTypes(text, known: VCard.Address.knownTypes, what: "address", scheme: "")
        let parts = SemicolonList.split(value)
        guard parts.count <= 7 else {
            throw ToolFailure(.usage, "--address '\(text)' has \(parts.count) parts; at most 7: "
                + "STREET;LOCALITY;REGION;CODE;COUNTRY;EXTENDED;POBOX (write '\\;' for a semicolon)")
        }
        var p = parts.map { $0.isEmpty ? nil : $0 } as [String?]
        p += Array(repeating: nil, count: 7 - p.count)
        let address = VCard.Address(poBox: p[6], extended: p[5], street: p[0], locality: p[1], region: p[2], code: p[3],
                                    country: p[4], types: types)
        guard address.components.contains(where: { $0 != nil }) else { throw ToolFailure(.usage, "empty --address '\(text)'") }
        return address
    }

    /// An email as `set` takes it.
    static func format(_ e: VCard.Email, types: Bool) -> String { prefixed(e.address, types ? e.types : []) }

    /// A phone as `set` takes it.
    static func format(_ p: VCard.Phone, types: Bool) -> String { prefixed(p.number, types ? p.types : []) }

    /// An address as `set` takes it; trailing empty parts are left off.
    static func format(_ a: VCard.Address, types: Bool) -> String {
        var parts = [a.street, a.locality, a.region, a.code, a.country, a.extended, a.poBox].map { part in
            SemicolonList.escape(part ?? "")
        }
        while parts.count > 1, parts.last == "" { parts.removeLast() }
        return prefixed(parts.joined(separator: ";"), types ? a.types : [])
    }

    /// `types:value`, or `value`, or `:value` when the value would otherwise read as typed.
    static func prefixed(_ value: String, _ types: [String]) -> String {
        if !types.isEmpty { return types.joined(separator: ",") + ":" + value }
        if let colon = value.firstIndex(of: ":"), value[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "," }) {
            return ":" + value
        }
        return value
    }

    /// Checks `--birthday`: a real calendar date written YYYY-MM-DD.
    static func birthday(_ text: String) throws(ToolFailure) -> String {
        guard CalendarDate.isValid(text) else {
            throw ToolFailure(.usage, "invalid --birthday '\(text)': expected a date written YYYY-MM-DD, e.g. 1990-04-15")
        }
        return text
    }
}
