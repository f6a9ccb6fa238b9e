import XMLTree

/// XEP-0172 `<nick xmlns='http://jabber.org/protocol/nick'/>`: the nickname a user asks others
/// to show, published in PEP (node `http://jabber.org/protocol/nick`). An empty element means
/// the user has none.
public struct UserNickname: Sendable, Equatable {
    /// The nickname; nil for an empty `<nick/>`.
    public var nickname: String?

    /// Builds a value; an empty or blank nickname is none.
    public init(_ nickname: String?) {
        self.nickname = nickname.flatMap { VCard.isBlank($0) ? nil : $0 }
    }

    /// Reads a `<nick/>`.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("nick", namespace: Namespace.nick)
        guard element.elements.isEmpty else { throw .invalidContent("<nick/> holds text only") }
        self.init(element.text)
    }

    /// The `<nick/>` element.
    public var element: XMLElement {
        XMLElement("nick", namespace: Namespace.nick, children: nickname.map { [.text($0)] } ?? [])
    }
}
