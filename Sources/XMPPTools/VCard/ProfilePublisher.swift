import TextFormats
import XMPPServices
import XMPPStanzas

/// `set` across the profile stores: one change written to vcard-temp, vCard4 and the nickname
/// node (or the one `--store` names), then a report of which store took which field.
struct ProfilePublisher {
    let context: AccountContext
    var env: ToolEnvironment { context.environment }

    /// `imported`: `status` is always "imported", even where every store already held the card.
    /// `skipped`: what the input had that was never sent (a file's PRODID), already warned about.
    /// `vcard4`: the vCard4 node's content from its current one (a 4.0 file's own properties).
    func run(stores: [ProfileStore], access: PEPAccess, imported: Bool = false, skipped: [VCardLoss] = [],
             vcard4: ((VCard4) -> VCard4)? = nil, change: (VCard) throws -> VCard) throws {
        let (connection, account) = try context.connectWithSession()
        defer { connection.close() }
        let result = try OwnVCardLock.around(account, env: env) {
            try ProfileWriter.write(on: connection, stores: Set(stores), access: access.rawValue, vcard4: vcard4, change: change)
        }
        let wanted = result.wanted
        let merged = MergedProfile(result.after)
        if stores.count > 1 {
            // The vCard4 properties are known only where the node was written (and read back).
            let extras = stores.contains(.vcard4) ? merged.vcard4Extras : nil
            VCardCacheAccess(env: env).record(account: account, cards: [.init(jid: account, card: merged.card, vcard4Extras: extras)], gone: [])
        }
        // What no store kept is lost; what only some kept is said per store. An element vcard-temp
        // did not keep (Prosody keeps no GENDER) is not lost when the vCard4 node holds that property.
        let inVCard4 = Set(merged.vcard4Extras.map { $0.name.uppercased() })
        let lost = stores.count > 1 ? wanted.losses(comparedTo: merged.card).filter { !inVCard4.contains($0.field.uppercased()) }
            : result.writes.first?.losses ?? []
        report(account, result.writes, lost: lost, skipped: skipped, single: stores.count == 1, imported: imported)
        if let failed = result.writes.first(where: { $0.status == .failed }), stores.count == 1 || result.writes.allSatisfy({ $0.status != .updated }) {
            throw ToolFailure(.refused, "\(failed.store.rawValue) was not written: \(failed.reason ?? "refused")")
        }
        if stores.count == 1, let w = result.writes.first, w.status == .unavailable {
            throw ToolFailure(.refused, "the server has no \(w.store.rawValue) store: \(w.reason ?? "no PEP")")
        }
    }

    private func report(_ account: JID, _ writes: [ProfileStoreWrite], lost: [VCardLoss], skipped: [VCardLoss],
                        single: Bool, imported: Bool) {
        let lostFields = VCardPublisher.fieldNames(lost)
        for field in lostFields {
            let values = lost.filter { $0.field == field }.map { VCardPublisher.short($0.value) }
            env.warn("warning: the server did not keep \(field) (\(values.joined(separator: "; ")))")
        }
        if !single {
            for w in writes {
                switch w.status {
                case .unavailable:
                    env.warn("warning: \(w.store.rawValue) was not written: the server has no PEP for it (\(w.reason ?? "unavailable"))")
                case .failed:
                    env.warn("warning: \(w.store.rawValue) was not written (\(w.reason ?? "refused"))")
                case .updated, .unchanged:
                    // Only for what this run changed: a store that never keeps a field is not news each time.
                    let partial = VCardPublisher.fieldNames(w.losses).filter { f in
                        !lostFields.contains(f) && w.changed.contains(String(f.prefix { $0 != "." }))
                    }
                    if !partial.isEmpty {
                        env.warn("note: \(w.store.rawValue) did not keep \(partial.joined(separator: ", ")); another store did")
                    }
                }
            }
        }
        let changed = VCardField.allCases.map(\.rawValue).filter { f in writes.contains { $0.changed.contains(f) } }
        let anyUpdated = writes.contains { $0.status == .updated }
        if context.common.json {
            Output.line(JSONValue.object([
                ("jid", .string(account.description)), ("status", .string(imported ? "imported" : anyUpdated ? "updated" : "unchanged")),
                ("changed_fields", .array(changed.map(JSONValue.string))),
                ("dropped_fields", .array(VCardPublisher.fieldNames(skipped + lost).map(JSONValue.string))),
                ("dropped", .array(skipped.map { VCardPublisher.json($0, by: "input") } + lost.map { VCardPublisher.json($0, by: "server") })),
                ("stores", .array(writes.map(Self.json))),
            ]).pretty)
        } else if !context.common.quiet {
            let parts = writes.filter { $0.status == .updated }.map { w in
                "\(w.store.rawValue)" + (w.changed.isEmpty ? "" : " (\(w.changed.joined(separator: ", ")))")
            }
            if imported {
                Output.line("Imported the profile of \(account)" + (parts.isEmpty ? "; every store already held it." : "; stored in \(parts.joined(separator: ", "))."))
                return
            }
            if !anyUpdated {
                Output.line("The profile of \(account) already has these values; nothing was sent.")
                return
            }
            Output.line("Updated the profile of \(account): \(changed.joined(separator: ", ")); stored in \(parts.joined(separator: ", ")).")
        }
    }

    static func json(_ w: ProfileStoreWrite) -> JSONValue {
        .object([("store", .string(w.store.rawValue)), ("status", .string(w.status.rawValue)),
                 ("changed_fields", .array(w.changed.map(JSONValue.string))),
                 ("dropped_fields", .array(VCardPublisher.fieldNames(w.losses).map(JSONValue.string))),
                 ("made_by_server", .bool(w.madeByServer)), ("reason", .optional(w.reason))])
    }
}
