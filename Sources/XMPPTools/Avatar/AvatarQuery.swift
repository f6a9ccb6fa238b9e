import Arguments
import XMPPServices
import XMPPStanzas

/// Whose avatar `get` and `info` look for and where: the options they share, and the search.
struct AvatarQuery {
    /// `--source`: where to look.
    enum Source: String, Sendable, CaseIterable {
        case auto, pep, vcard

        /// The places to look, in order.
        var places: [AvatarSource] {
            switch self {
            case .auto: return [.pep, .vcard]
            case .pep: return [.pep]
            case .vcard: return [.vcard]
            }
        }
    }

    static let jid = PositionalSpec("JID", help: "Whose avatar (default: the account's own); a name without @ is on the account's domain.",
                                    optional: true, completion: .contacts)
    static let cached = Flag("cached", help: "Answer from the local cache only, without connecting.")
    static let source = Option<Source>.choice(
        "source", value: "WHERE", help: "Where to look: auto (PEP, then the vCard), pep (XEP-0084 only) or vcard (XEP-0153 only).",
        default: .auto)

    let context: AccountContext
    let jidText: String?
    let cachedOnly: Bool
    let places: [AvatarSource]
    var env: ToolEnvironment { context.environment }

    init(_ invocation: Invocation) throws {
        context = invocation.passwordContext
        jidText = invocation.command.argument(Self.jid.name)
        cachedOnly = invocation.command[Self.cached]
        places = (try invocation.command.value(Self.source) ?? .auto).places
    }

    /// The avatar of the JID argument, from the cache (`--cached`) or the server; exit 4 when none.
    func find() throws -> FoundAvatar {
        let account = try context.accountJID()
        let jid = try AvatarLookup.target(jidText, account: account)
        let lookup = AvatarLookup(environment: env, account: account)
        let cache = lookup.openCache()
        if cachedOnly {
            guard let found = lookup.cached(jid, sources: places, cache: cache) else {
                throw ToolFailure(.notFound, "no cached avatar for \(jid) (fetch it once without --cached)")
            }
            return found
        }
        let (connection, _) = try context.connectWithSession()
        defer { connection.close() }
        guard let found = try lookup.fetch(jid, sources: places, on: connection, cache: cache) else {
            do { try cache?.forget(account: account, jid: jid) } catch { env.warn("cache not updated: \(error)") }
            let where_ = places.count == 1 ? " in its \(places[0].label)" : ""
            throw ToolFailure(.notFound, "\(jid) has no avatar\(where_)")
        }
        do { try cache?.store(found.entry(now: env.now), account: account) } catch { env.warn("cache not updated: \(error)") }
        return found
    }
}
