import TextFormats
import XMPPServices
import XMPPStanzas

/// What `add`, `remove`, `rename` and `group` share: the contact resolved before the network is
/// touched, the synced roster, roster sets that wait for the server's pushes behind a ping (so
/// the cache follows the change with the server's version), and the report of what changed.
struct ContactEdit {
    let context: AccountContext

    /// Resolves the contact before touching the network, then connects and syncs.
    func open(_ contactText: String) throws -> (RosterSession, JID) {
        let account = try context.accountJID()
        let jid = try ContactAddress.resolve(contactText, account: account)
        let session = try RosterSession.open(context)
        do { try session.sync() } catch { session.close(); throw error }
        return (session, jid)
    }

    /// Resolves every contact before touching the network (a bad one sends nothing), then
    /// connects and syncs once.
    func open(_ contactTexts: [String]) throws -> (RosterSession, [JID]) {
        let account = try context.accountJID()
        var jids: [JID] = []
        for text in contactTexts {
            let jid = try ContactAddress.resolve(text, account: account)
            if !jids.contains(jid) { jids.append(jid) }
        }
        let session = try RosterSession.open(context)
        do { try session.sync() } catch { session.close(); throw error }
        return (session, jids)
    }

    /// What one contact's change printed: the item as it is now, the action, the sentence.
    struct Report {
        var item: RosterItem
        var action: String
        var subscribed: Bool
        var text: String
    }

    /// Several contacts' reports: one JSON object (or an array of them when `asArray`), or their sentences.
    func report(_ reports: [Report], asArray: Bool) {
        if context.common.json && asArray {
            Output.line(JSONValue.array(reports.map { json($0.item, action: $0.action, subscribed: $0.subscribed) }).pretty)
            return
        }
        for r in reports { report(r.item, action: r.action, subscribed: r.subscribed, text: r.text) }
    }

    private func json(_ item: RosterItem, action: String, subscribed: Bool) -> JSONValue {
        .object([
            ("jid", .string(item.jid.description)), ("action", .string(action)),
            ("name", .optional(item.name)), ("groups", .array(item.groups.map(JSONValue.string))),
            ("subscription", .string(item.subscription.rawValue)), ("ask", .bool(item.ask)),
            ("subscription_requested", .bool(subscribed)),
        ])
    }

    /// Changes an existing contact (exit 4 when it is not in the roster) with one roster set;
    /// `change` returns the sentence that reports it.
    func update(_ contactText: String, _ change: (inout RosterItem) -> String) throws {
        let (session, jid) = try open(contactText)
        defer { session.close() }
        guard var item = session.roster[jid] else { throw ToolFailure(.notFound, "\(jid) is not in the roster") }
        let text = change(&item)
        try RosterService.set(item, on: session.connection)
        _ = try session.barrier()
        report(session.roster[jid] ?? item, action: "updated", subscribed: false, text: text)
    }

    /// Refuses group names that cannot be sent in XML (exit status 9).
    static func checkGroups(_ groups: [String]) throws(ToolFailure) {
        if let bad = groups.first(where: { !RosterFile.isValidText($0) }) {
            throw ToolFailure(.badInput, "invalid group name '\(bad)': control characters cannot be sent in XML")
        }
    }

    /// The contact as it is now and what was done: a JSON object, or `text` for people.
    func report(_ item: RosterItem, action: String, subscribed: Bool, text: String) {
        if context.common.json {
            Output.line(json(item, action: action, subscribed: subscribed).pretty)
        } else if !context.common.quiet {
            Output.textLine(text)
        }
    }
}
