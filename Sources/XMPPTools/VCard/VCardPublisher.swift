import TextFormats
import XMPPServices
import XMPPStanzas

/// Publishing one's own card and checking what the server kept (`set` and `import`).
struct VCardPublisher {
    let context: AccountContext
    var env: ToolEnvironment { context.environment }

    /// What publishing did.
    struct Outcome {
        /// updated, unchanged or imported.
        var status: String
        /// Fields whose value changed.
        var changed: [String]
        /// Values the server did not keep.
        var losses: [VCardLoss]
        /// Values the input had that were never sent (a file's PRODID), already warned about.
        var skipped: [VCardLoss] = []
    }

    /// Fetches the account's card, lets `change` turn it into the card to publish, publishes it
    /// (unless nothing changed and `force` is false), reads it back, caches and reports.
    func run(status: String, force: Bool, skipped: [VCardLoss] = [], change: (VCard) throws -> VCard) throws {
        let (connection, account) = try context.connectWithSession()
        defer { connection.close() }
        let cache = VCardCacheAccess(env: env)
        let (outcome, kept) = try OwnVCardLock.around(account, env: env) { () throws -> (Outcome, VCard) in
            let current = try VCardService.fetch(on: connection, jid: nil)
            let card = try change(current)
            guard force || card != current else { return (Outcome(status: "unchanged", changed: [], losses: []), current) }
            try VCardService.publish(card, on: connection)
            let kept = try VCardService.fetch(on: connection, jid: nil)
            return (Outcome(status: status, changed: VCardRender.changedFields(from: current, to: card),
                            losses: card.losses(comparedTo: kept)), kept)
        }
        cache.record(account: account, cards: [.init(jid: account, card: kept, vcard4Extras: nil)], gone: [])
        var reported = outcome
        reported.skipped = skipped
        report(account, reported)
    }

    /// Warns about every field the server dropped (one line per field) and prints the result.
    func report(_ account: JID, _ outcome: Outcome) {
        let fields = Self.fieldNames(outcome.losses)
        for field in fields {
            let values = outcome.losses.filter { $0.field == field }.map { Self.short($0.value) }
            env.warn("warning: the server did not keep \(field) (\(values.joined(separator: "; ")))")
        }
        if context.common.json {
            Output.line(JSONValue.object([
                ("jid", .string(account.description)), ("status", .string(outcome.status)),
                ("changed_fields", .array(outcome.changed.map(JSONValue.string))),
                ("dropped_fields", .array(Self.fieldNames(outcome.skipped + outcome.losses).map(JSONValue.string))),
                ("dropped", .array(outcome.skipped.map { Self.json($0, by: "input") } + outcome.losses.map { Self.json($0, by: "server") })),
            ]).pretty)
        } else if !context.common.quiet {
            switch outcome.status {
            case "unchanged": Output.line("The vCard of \(account) already has these values; nothing was sent.")
            case "imported": Output.line("Imported the vCard of \(account).")
            default: Output.line("Updated the vCard of \(account): \(outcome.changed.joined(separator: ", ")).")
            }
        }
    }

    /// One dropped value: its field, the value, and who dropped it (the input's reader, or the server).
    static func json(_ loss: VCardLoss, by whom: String) -> JSONValue {
        .object([("field", .string(loss.field)), ("value", .string(loss.value)), ("by", .string(whom))])
    }

    /// Distinct field names in order.
    static func fieldNames(_ losses: [VCardLoss]) -> [String] {
        var names: [String] = []
        for l in losses where !names.contains(l.field) { names.append(l.field) }
        return names
    }

    /// One line, at most 60 characters.
    static func short(_ s: String) -> String {
        let flat = s.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
        return flat.count > 60 ? String(flat.prefix(60)) + "…" : flat
    }
}
