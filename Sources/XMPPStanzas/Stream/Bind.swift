import XMLTree

/// Resource binding (RFC 6120 §7): the request payload and the bound JID in the reply.
public enum Bind {
    /// `<bind><resource>…</resource></bind>`, or an empty bind asking the server to choose.
    public static func request(resource: String?) -> XMLElement {
        var bind = XMLElement("bind", namespace: Namespace.bind)
        if let resource {
            bind.append(XMLElement("resource", namespace: Namespace.bind, children: [.text(resource)]))
        }
        return bind
    }

    /// The full JID the server bound, from a result payload.
    public static func boundJID(from payload: XMLElement?) throws(StanzaParseError) -> JID {
        guard let payload, payload.name == "bind" else { throw .missingChild(element: "iq", child: "bind") }
        guard let jidText = payload.child("jid", namespace: Namespace.bind)?.text.trimmingWhitespace() else {
            throw .missingChild(element: "bind", child: "jid")
        }
        do { return try JID(jidText) } catch { throw .invalidJID(attribute: "jid", value: jidText, error) }
    }
}
