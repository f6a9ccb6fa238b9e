import XMLTree

/// One RFC 6121 §2.1 roster item: `<item jid='…' name='…' subscription='…' ask='subscribe'><group/>…</item>`.
public struct RosterItem: Sendable, Equatable {
    /// The contact's bare JID.
    public var jid: JID
    /// The name the user gave the contact, if any.
    public var name: String?
    /// The subscription state.
    public var subscription: Subscription
    /// A subscription request from the user is pending (`ask='subscribe'`, "pending out").
    public var ask: Bool
    /// The user pre-approved the contact's subscription (`approved='true'`, RFC 6121 §3.4).
    public var approved: Bool
    /// The groups, in the order given, without duplicates or empty names.
    public var groups: [String]

    /// Largest number of groups read from one item; more is a malformed item.
    public static let maxGroups = 256

    /// Builds an item.
    public init(jid: JID, name: String? = nil, subscription: Subscription = .none, ask: Bool = false,
                approved: Bool = false, groups: [String] = []) {
        self.jid = jid
        self.name = name
        self.subscription = subscription
        self.ask = ask
        self.approved = approved
        self.groups = RosterItem.normalized(groups)
    }

    /// Reads an `<item/>` of a `jabber:iq:roster` query.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("item")
        let jidText = try element.required("jid")
        let parsed: JID
        do { parsed = try JID(jidText) } catch { throw .invalidJID(attribute: "jid", value: jidText, error) }
        guard parsed.isBare else { throw .invalidAttribute(element: "item", attribute: "jid", value: jidText) }
        jid = parsed
        let nameText = element[attribute: "name"]
        name = (nameText?.isEmpty ?? true) ? nil : nameText
        if let text = element[attribute: "subscription"] {
            guard let value = Subscription(rawValue: text) else {
                throw .invalidAttribute(element: "item", attribute: "subscription", value: text)
            }
            subscription = value
        } else {
            subscription = .none
        }
        if let text = element[attribute: "ask"], text != "subscribe" {
            throw .invalidAttribute(element: "item", attribute: "ask", value: text)
        }
        ask = element[attribute: "ask"] != nil
        let approvedText = element[attribute: "approved"]
        approved = approvedText == "true" || approvedText == "1"
        let groupElements = element.children("group", namespace: Namespace.roster)
        guard groupElements.count <= RosterItem.maxGroups else {
            throw .invalidContent("roster item \(jidText) has more than \(RosterItem.maxGroups) groups")
        }
        groups = RosterItem.normalized(groupElements.map(\.text))
    }

    /// The item as a server sends it (subscription, ask and approved included).
    public var element: XMLElement {
        var e = XMLElement("item", namespace: Namespace.roster, attributes: [XMLAttribute(name: "jid", value: jid.description)])
        if let name { e[attribute: "name"] = name }
        e[attribute: "subscription"] = subscription.rawValue
        if ask { e[attribute: "ask"] = "subscribe" }
        if approved { e[attribute: "approved"] = "true" }
        appendGroups(to: &e)
        return e
    }

    /// The item as a client sets it (RFC 6121 §2.1.2: no subscription other than `remove`, no ask, no approved).
    public var setElement: XMLElement {
        var e = XMLElement("item", namespace: Namespace.roster, attributes: [XMLAttribute(name: "jid", value: jid.description)])
        if let name { e[attribute: "name"] = name }
        if subscription == .remove { e[attribute: "subscription"] = "remove" }
        appendGroups(to: &e)
        return e
    }

    private func appendGroups(to e: inout XMLElement) {
        for group in groups {
            e.append(XMLElement("group", namespace: Namespace.roster, children: [.text(group)]))
        }
    }

    /// Drops empty and repeated group names, keeping the first occurrence's position.
    static func normalized(_ groups: [String]) -> [String] {
        // Most contacts are in one group or none: no set to build (a Set per item was 2,400
        // instructions of each cached row).
        if groups.count < 2 { return groups.filter { !$0.isEmpty } }
        var seen = Set<String>()
        return groups.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
