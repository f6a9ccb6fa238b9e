/// A roster as vCard 4.0 cards (RFC 6350), one per contact, for an address book: FN (the
/// roster name, or the JID when the contact has none; FN is required), IMPP with the contact's
/// `xmpp:` URI (`XMPPURI`), CATEGORIES with its roster groups, and KIND:individual. The names and
/// groups come from the server and are escaped as vCard text (RFC 6350 §3.4: backslash, comma,
/// semicolon, line breaks), so none can end a line or start a property; lines are folded at
/// 75 octets, never inside a UTF-8 sequence, and end in CRLF.
public enum RosterVCF {
    /// The cards of `items`, in the order given.
    public static func write(_ items: [RosterItem]) -> String {
        var out = ""
        for item in items {
            var lines = ["BEGIN:VCARD", "VERSION:4.0", "KIND:individual"]
            let name = item.name.flatMap { VCard.isBlank($0) ? nil : $0 } ?? item.jid.description
            lines.append("FN:" + VCFText.escape(name))
            lines.append("IMPP:" + XMPPURI.string(item.jid.description))
            let groups = item.groups.filter { !VCard.isBlank($0) }
            if !groups.isEmpty { lines.append("CATEGORIES:" + groups.map(VCFText.escape).joined(separator: ",")) }
            lines.append("END:VCARD")
            for line in lines { VCFText.fold(line, into: &out) }
        }
        return out
    }
}
