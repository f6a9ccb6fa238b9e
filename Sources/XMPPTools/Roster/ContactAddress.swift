import XMPPStanzas

/// Reads a contact address as typed: `bob` means bob on the account's domain (ARCHITECTURE.md §3);
/// contacts are bare JIDs, and the account itself is never a contact.
enum ContactAddress {
    /// The contact's bare JID, or exit status 9 with the reason.
    static func resolve(_ text: String, account: JID) throws(ToolFailure) -> JID {
        let trimmed = text.trimmingWhitespace()
        let jid: JID
        do {
            jid = trimmed.unicodeScalars.contains("@") ? try JID(trimmed) : try JID(local: trimmed, domain: account.domain)
        } catch {
            throw ToolFailure(.badInput, "invalid contact '\(JID.printable(text))': \(error)")
        }
        guard jid.isBare else {
            throw ToolFailure(.badInput, "invalid contact '\(JID.printable(text))': contacts are bare JIDs (leave out '/\(jid.resource ?? "")')")
        }
        guard jid != account.bare else { throw ToolFailure(.badInput, "\(jid) is your own account, not a contact") }
        return jid
    }
}
