import XMLTree
import XMPPStanzas

/// XEP-0199 pings from the server: answered wherever stanzas are read, so a long-lived tool is
/// not dropped and no caller ever sees them.
enum ServerPing {
    /// The result to send back when `element` is a server ping; nil for anything else.
    static func reply(to element: XMLElement) -> XMLElement? {
        guard element.name == "iq", element[attribute: "type"] == "get",
              element.child("ping", namespace: Namespace.ping) != nil, let id = element[attribute: "id"] else { return nil }
        var reply = Iq(type: .result, id: id)
        reply.to = element[attribute: "from"].flatMap { try? JID($0) }
        return reply.element
    }
}
