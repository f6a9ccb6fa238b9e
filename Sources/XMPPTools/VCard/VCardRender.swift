import TextFormats
import XMLTree
import XMPPServices
import XMPPStanzas

/// A card to print: whose, and whether it came from the server or the cache.
struct VCardResult {
    /// Whose card.
    var jid: JID
    /// The card.
    var card: VCard
    /// When it came from the cache, when it had been fetched (seconds since 1970).
    var cachedAt: Int?
    /// The stores that held something, the store each field came from, and where they disagree
    /// (empty for a cached card: the cache holds the merged view only).
    var stores: [ProfileStore] = []
    var sources: [VCardField: ProfileStore] = [:]
    var conflicts: [ProfileConflict] = []
    /// The vCard4 node's unmapped properties, which `--format vcf4` writes (from the cache: as
    /// last read from every store).
    var vcard4Extras: [XMLElement] = []
}

extension VCardResult {
    /// A result from the server: the merged stores.
    init(jid: JID, merged: MergedProfile) {
        self.init(jid: jid, card: merged.card, cachedAt: nil, stores: merged.stores, sources: merged.sources,
                  conflicts: merged.conflicts, vcard4Extras: merged.vcard4Extras)
    }
}

/// `get` output: JSON, text for people, tab-separated text for scripts, single fields.
enum VCardRender {
    /// The keys of every `get --json` object, in order (documented in xmpp-vcard(1)); JSON Lines
    /// add `listKeys`.
    static let jsonKeys = ["jid", "source", "fetched_at"] + cardKeys + profileKeys
    /// Which stores held the profile, which one each field came from, and where they disagree.
    static let profileKeys = ["stores", "field_sources", "conflicts"]
    /// The keys a JSON Line has besides `jsonKeys` (or besides `jid` and the field with `--field`).
    static let listKeys = ["error", "exit_code"]
    static let cardKeys = ["fullname", "given", "family", "middle", "prefix", "suffix", "nickname", "birthday", "org",
                           "org_units", "title", "role", "emails", "phones", "addresses", "url", "note", "jabber_id",
                           "photo", "other_fields", "other"]

    /// The JSON object of one card (stable snake_case keys, `jsonKeys`).
    static func json(_ r: VCardResult) -> JSONValue {
        .object([("jid", .string(r.jid.description)), ("source", .string(r.cachedAt == nil ? "server" : "cache")),
                 ("fetched_at", r.cachedAt.map { .string(isoDate($0)) } ?? .null)] + cardMembers(r.card) + profileMembers(r.stores, r.sources, r.conflicts))
    }

    private static func profileMembers(_ stores: [ProfileStore], _ sources: [VCardField: ProfileStore],
                                       _ conflicts: [ProfileConflict]) -> [(String, JSONValue)] {
        let shown = VCardField.allCases.compactMap { f in sources[f].map { (f.rawValue, JSONValue.string($0.rawValue)) } }
        let list = conflicts.map { c in
            JSONValue.object([("field", .string(c.field.rawValue)), ("values", .array(c.values.map { v in
                .object([("store", .string(v.store.rawValue)), ("value", .string(v.value))])
            }))])
        }
        return [("stores", .array(stores.map { .string($0.rawValue) })), ("field_sources", .object(shown)),
                ("conflicts", .array(list))]
    }

    /// A JSON Line of a list: the card with `error` null and `exit_code` 0.
    static func jsonLine(_ r: VCardResult) -> JSONValue {
        .object(members(json(r)) + [("error", .null), ("exit_code", .int(0))])
    }

    /// A JSON Line for a JID that failed: the keys of an empty card, so every line has the same keys.
    static func failureLine(label: String, _ f: ToolFailure) -> JSONValue {
        .object([("jid", .string(label)), ("source", .null), ("fetched_at", .null)] + cardMembers(VCard())
                + profileMembers([], [:], []) + [("error", .string(f.message)), ("exit_code", .int(Int(f.code.rawValue)))])
    }

    /// A `--field` JSON Line: the JID, the field's value (null or a list), error and exit status.
    static func fieldLine(jid: String, field: String, values: [String], failure: ToolFailure? = nil) -> JSONValue {
        .object([("jid", .string(jid)), (field, fieldValue(field, values)), ("error", .optional(failure?.message)),
                 ("exit_code", .int(Int(failure?.code.rawValue ?? 0)))])
    }

    /// A `--field` value in JSON: a list for repeatable fields, else the value or null.
    static func fieldValue(_ field: String, _ values: [String]) -> JSONValue {
        VCardField(rawValue: field)?.isRepeatable ?? false ? .array(values.map(JSONValue.string)) : .optional(values.first)
    }

    private static func members(_ v: JSONValue) -> [(String, JSONValue)] {
        if case .object(let m) = v { return m }
        return []
    }

    private static func cardMembers(_ c: VCard) -> [(String, JSONValue)] {
        let s = JSONValue.optional
        return [
            ("fullname", s(c.fullName)), ("given", s(c.name.given)), ("family", s(c.name.family)),
            ("middle", s(c.name.middle)), ("prefix", s(c.name.prefix)), ("suffix", s(c.name.suffix)),
            ("nickname", s(c.nickname)), ("birthday", s(c.birthday)),
            ("org", s(c.organization.name)), ("org_units", .array(c.organization.units.map(JSONValue.string))),
            ("title", s(c.title)), ("role", s(c.role)),
            ("emails", .array(c.emails.map { .object([("address", .string($0.address)), ("types", types($0.types))]) })),
            ("phones", .array(c.phones.map { .object([("number", .string($0.number)), ("types", types($0.types))]) })),
            ("addresses", .array(c.addresses.map { a in
                .object([("street", s(a.street)), ("extended", s(a.extended)), ("pobox", s(a.poBox)),
                         ("locality", s(a.locality)), ("region", s(a.region)), ("code", s(a.code)),
                         ("country", s(a.country)), ("types", types(a.types))])
            })),
            ("url", s(c.url)), ("note", s(c.note)), ("jabber_id", s(c.jabberID)),
            ("photo", c.photo.map { p in
                let info = VCardPhotoFile.info(p)
                return .object([("type", s(info.type)), ("bytes", info.bytes.map { .int($0.count) } ?? .null),
                                ("sha1", s(info.sha1)), ("url", s(info.url))])
            } ?? .null),
            ("other_fields", .array(otherFields(c).map(JSONValue.string))),
            ("other", .array(c.extras.map { e in
                .object([("field", .string(e.name)), ("value", .string(VCard.summary(of: e))),
                         ("xml", .string(e.serialized(inheritedNamespace: Namespace.vcardTemp)))])
            })),
        ]
    }

    private static func types(_ t: [String]) -> JSONValue { .array(t.map(JSONValue.string)) }

    /// Names of the elements kept verbatim, each once.
    static func otherFields(_ c: VCard) -> [String] {
        var names: [String] = []
        for e in c.extras where !names.contains(e.name) { names.append(e.name) }
        return names
    }

    /// (field, value) pairs in display order; entries in `set` syntax with their types, or for
    /// people (`human`) as `value (type, type)` with addresses comma-separated.
    static func pairs(_ c: VCard, human: Bool = false) -> [(VCardFieldLabel, String)] {
        var out: [(VCardFieldLabel, String)] = []
        func add(_ f: VCardFieldLabel, _ v: String?) { if let v { out.append((f, v)) } }
        add(.fullname, c.fullName); add(.given, c.name.given); add(.family, c.name.family); add(.middle, c.name.middle)
        add(.prefix, c.name.prefix); add(.suffix, c.name.suffix); add(.nickname, c.nickname); add(.birthday, c.birthday)
        add(.org, c.organization.name)
        c.organization.units.forEach { add(.orgUnit, $0) }
        add(.title, c.title); add(.role, c.role)
        func typed(_ value: String, _ types: [String]) -> String {
            types.isEmpty ? value : value + " (" + types.joined(separator: ", ") + ")"
        }
        c.emails.forEach { add(.email, human ? typed($0.address, $0.types) : VCardSyntax.format($0, types: true)) }
        c.phones.forEach { add(.phone, human ? typed($0.number, $0.types) : VCardSyntax.format($0, types: true)) }
        c.addresses.forEach { add(.address, human ? typed($0.summary, $0.types) : VCardSyntax.format($0, types: true)) }
        add(.url, c.url); add(.note, c.note); add(.jabberID, c.jabberID)
        if let p = c.photo {
            let info = VCardPhotoFile.info(p)
            add(.photo, info.sha1); add(.photoType, info.type); add(.photoSize, info.bytes.map { String($0.count) }); add(.photoURL, info.url)
        }
        if human {
            c.extras.forEach { add(.other, $0.name + ": " + VCard.summary(of: $0)) }
        } else {
            otherFields(c).forEach { add(.other, $0) }
        }
        return out
    }

    /// Text for people: aligned labels, continuation lines indented; entries show their types.
    static func text(_ r: VCardResult) -> [String] {
        let rows = [(VCardFieldLabel.card, r.jid.description)] + pairs(r.card, human: true).map { ($0.0, $0.0 == .photoSize ? $0.1 + " bytes" : $0.1) }
        let width = rows.map(\.0.label.count).max() ?? 0
        var lines: [String] = []
        for (field, value) in rows {
            let pad = String(repeating: " ", count: width - field.label.count + 2)
            // A line break in a value starts an indented line; every other control is escaped.
            let valueLines = value.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                .map { TerminalText.escaped(String($0)) }
            lines.append(field.label + pad + (valueLines.first ?? ""))
            for more in valueLines.dropFirst() { lines.append(String(repeating: " ", count: width + 2) + more) }
        }
        if r.card.isEmpty { lines.append("(empty vCard)") }
        return lines
    }

    /// FIELD<TAB>VALUE lines for scripts; backslashes, newlines, tabs and other controls escaped.
    static func tsv(_ r: VCardResult, prefix: String = "") -> [String] {
        pairs(r.card).map { prefix + $0.0.rawValue + "\t" + escapeTSV($0.1) }
    }

    /// `\\`, `\n`, `\r`, `\t`, `\e`, and `U+XXXX` for the other controls (`TerminalText`).
    static func escapeTSV(_ s: String) -> String { TerminalText.escaped(s, escapingBackslash: true) }

    /// The values of one `--field`, as `set` takes them but without types; empty when unset.
    static func field(_ name: String, of c: VCard) -> [String] {
        if let f = VCardField(rawValue: name) {
            switch f {
            case .orgUnit: return c.organization.units
            case .email: return c.emails.map { VCardSyntax.format($0, types: false) }
            case .phone: return c.phones.map { VCardSyntax.format($0, types: false) }
            case .address: return c.addresses.map { VCardSyntax.format($0, types: false) }
            case .photo: return c.photo.flatMap { VCardPhotoFile.info($0).sha1 }.map { [$0] } ?? []
            default: return f.text(in: c).map { [$0] } ?? []
            }
        }
        let info = c.photo.map(VCardPhotoFile.info)
        switch name {
        case "photo_type": return info?.type.map { [$0] } ?? []
        case "photo_size": return info?.bytes.map { [String($0.count)] } ?? []
        case "photo_url": return info?.url.map { [$0] } ?? []
        default: return []
        }
    }

    /// The fields whose values differ between two cards, for `set` reports.
    static func changedFields(from old: VCard, to new: VCard) -> [String] {
        var names: [String] = []
        for f in VCardField.allCases {
            let a = pairs(old).filter { $0.0.field == f }.map(\.1), b = pairs(new).filter { $0.0.field == f }.map(\.1)
            if a != b { names.append(f.rawValue) }
        }
        return names
    }

    /// `2026-11-30T06:00:00Z` for seconds since 1970 (UTC, proleptic Gregorian).
    static func isoDate(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }
}

/// The rows of text output: the `--field` names plus the photo's details and "other".
enum VCardFieldLabel: String {
    case card, fullname, given, family, middle, prefix, suffix, nickname, birthday, org, orgUnit = "org_unit", title, role
    case email, phone, address, url, note, jabberID = "jabber_id", photo, photoType = "photo_type", photoSize = "photo_size"
    case photoURL = "photo_url", other

    /// The vCard field this row shows, if it is one.
    var field: VCardField? { VCardField(rawValue: rawValue) ?? (self == .photoType || self == .photoURL ? .photo : nil) }

    /// The label people read.
    var label: String {
        switch self {
        case .card: return "vCard of"
        case .fullname: return "Full name"
        case .given: return "Given name"
        case .family: return "Family name"
        case .middle: return "Middle name"
        case .prefix: return "Prefix"
        case .suffix: return "Suffix"
        case .nickname: return "Nickname"
        case .birthday: return "Birthday"
        case .org: return "Organisation"
        case .orgUnit: return "Unit"
        case .title: return "Title"
        case .role: return "Role"
        case .email: return "Email"
        case .phone: return "Phone"
        case .address: return "Address"
        case .url: return "URL"
        case .note: return "Note"
        case .jabberID: return "XMPP address"
        case .photo: return "Photo SHA-1"
        case .photoType: return "Photo type"
        case .photoSize: return "Photo size"
        case .photoURL: return "Photo URL"
        case .other: return "Other field"
        }
    }
}
