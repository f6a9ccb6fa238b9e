import XMLTree

/// An invite URI (XEP-0379, XEP-0401 §4): `xmpp:example.org?register;preauth=TOKEN` for an
/// account, `xmpp:user@example.org?register;preauth=TOKEN` for one user name, or a contact's
/// `xmpp:alice@example.org?roster;preauth=TOKEN;ibr=y` that also allows registering.
public struct InviteURI: Sendable, Equatable {
    /// The JID in the URI: the server, or the user (name or inviting contact).
    public var jid: JID
    /// register or roster.
    public var action: String
    /// The pre-authentication token.
    public var token: String
    /// The invite allows creating an account (register, or roster with ibr=y).
    public var allowsRegistration: Bool

    /// Reads the URI text; a reason on every failure.
    public init(_ text: String) throws(StanzaParseError) {
        guard text.hasPrefix("xmpp:"), let q = text.firstIndex(of: "?") else {
            throw .invalidContent("not an invite URI (expected xmpp:DOMAIN?register;preauth=TOKEN): \(text)")
        }
        let path = InviteURI.percentDecoded(String(text[text.index(text.startIndex, offsetBy: 5)..<q]))
        do { jid = try JID(path.hasPrefix("//") ? String(path.dropFirst(2)) : path) } catch {
            throw .invalidJID(attribute: "uri", value: path, error)
        }
        let parts = text[text.index(after: q)...].split(separator: ";").map(String.init)
        guard let first = parts.first, ["register", "roster"].contains(first) else {
            throw .invalidContent("the URI is not an invite (its action is neither register nor roster): \(text)")
        }
        action = first
        var params: [String: String] = [:]
        for p in parts.dropFirst() {
            let kv = p.split(separator: "=", maxSplits: 1).map(String.init)
            params[kv[0]] = kv.count > 1 ? InviteURI.percentDecoded(kv[1]) : ""
        }
        guard let t = params["preauth"], !t.isEmpty else { throw .invalidContent("the invite URI has no preauth token: \(text)") }
        token = t
        allowsRegistration = action == "register" || params["ibr"] == "y"
    }

    /// The `<preauth/>` request (XEP-0401 §5.3) that presents the token before registering.
    public var preauthPayload: XMLElement {
        XMLElement("preauth", namespace: Namespace.preauth, attributes: ["token": token])
    }

    private static func percentDecoded(_ s: String) -> String {
        var bytes: [UInt8] = []
        var it = Array(s.utf8).makeIterator()
        while let b = it.next() {
            if b == UInt8(ascii: "%"), let h = it.next(), let l = it.next(), let v = UInt8(String(decoding: [h, l], as: UTF8.self), radix: 16) {
                bytes.append(v)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
