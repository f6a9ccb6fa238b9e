import TextFormats

/// What `xmpp-register handout` asks the slip printer (`xmpp-tools-slips`, a program of its own
/// so that Pango, cairo and GLib are loaded by it alone and not at every start of every tool)
/// to print, as one JSON object on the printer's standard input: a pipe, never a file or argv,
/// since it holds the passwords.
///
///     {"paper": "a4", "password_text": "…", "invite_text": "…", "title": "…",
///      "groups": [{"heading": "Class 5A", "slips": [{"name": "…", "address": "…",
///                  "password": "…"} or {…, "invite": "xmpp:…", "valid_until": "…"}]}]}
public struct SlipRequest: Sendable, Equatable {
    public var sheet: SlipSheet
    public var groups: [SlipGroup]

    public init(sheet: SlipSheet, groups: [SlipGroup]) {
        self.sheet = sheet
        self.groups = groups
    }

    /// The request's bytes.
    public var json: [UInt8] {
        let groups = self.groups.map { group in
            JSONValue.object([("heading", .string(group.heading)), ("slips", .array(group.slips.map { slip in
                let secret: (String, JSONValue)
                switch slip.secret {
                case .password(let password): secret = ("password", .string(password))
                case .invite(let uri): secret = ("invite", .string(uri))
                }
                return .object([("name", .string(slip.name)), ("address", .string(slip.address)), secret]
                               + (slip.validUntil.map { [("valid_until", JSONValue.string($0))] } ?? []))
            }))])
        }
        return Array(JSONValue.object([
            ("paper", .string(sheet.paper.rawValue)), ("password_text", .string(sheet.passwordText)),
            ("invite_text", .string(sheet.inviteText)), ("title", .string(sheet.title)), ("groups", .array(groups)),
        ]).compact.utf8)
    }

    /// The request `bytes` hold; a typed error naming what is wrong otherwise.
    public init(json bytes: [UInt8]) throws(SlipError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw .request(reason: error.description) }
        guard case .object(let fields) = value else { throw .request(reason: "not a JSON object") }
        let top = Self.dictionary(fields)
        guard let paperName = Self.string(top["paper"]), let paper = Paper(rawValue: paperName) else {
            throw .request(reason: "no paper a4 or letter")
        }
        guard let passwordText = Self.string(top["password_text"]), let inviteText = Self.string(top["invite_text"]),
              let title = Self.string(top["title"]) else { throw .request(reason: "no password_text, invite_text or title") }
        guard case .array(let groupValues)? = top["groups"] else { throw .request(reason: "no groups") }
        var groups: [SlipGroup] = []
        for groupValue in groupValues {
            guard case .object(let groupFields) = groupValue else { throw .request(reason: "a group that is not an object") }
            let group = Self.dictionary(groupFields)
            guard let heading = Self.string(group["heading"]), case .array(let slipValues)? = group["slips"] else {
                throw .request(reason: "a group without heading or slips")
            }
            var slips: [Slip] = []
            for slipValue in slipValues {
                guard case .object(let slipFields) = slipValue else { throw .request(reason: "a slip that is not an object") }
                let slip = Self.dictionary(slipFields)
                guard let name = Self.string(slip["name"]), let address = Self.string(slip["address"]) else {
                    throw .request(reason: "a slip without name or address")
                }
                let validUntil = Self.string(slip["valid_until"])
                if let password = Self.string(slip["password"]) {
                    slips.append(Slip(name: name, address: address, secret: .password(password), validUntil: validUntil))
                } else if let uri = Self.string(slip["invite"]) {
                    slips.append(Slip(name: name, address: address, secret: .invite(uri), validUntil: validUntil))
                } else {
                    throw .request(reason: "a slip without password or invite")
                }
            }
            groups.append(SlipGroup(heading: heading, slips: slips))
        }
        self.init(sheet: SlipSheet(paper: paper, passwordText: passwordText, inviteText: inviteText, title: title), groups: groups)
    }

    private static func dictionary(_ fields: [(String, JSONValue)]) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for (key, value) in fields where out[key] == nil { out[key] = value }
        return out
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }
}
