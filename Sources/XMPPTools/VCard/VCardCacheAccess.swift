import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// The commands' view of the vCard cache: opened on first use; write failures only warn
/// (the cache is disposable), read failures for `--cached` are errors.
final class VCardCacheAccess {
    private let env: ToolEnvironment
    private var opened: VCardCache?

    init(env: ToolEnvironment) { self.env = env }

    /// The cache, opening (and if need be rebuilding) it.
    func cache() throws -> VCardCache {
        if let opened { return opened }
        let cache = VCardCache(cache: try Cache(paths: env.paths, areas: [.vcard], onRebuild: { [env] in env.warn($0) }))
        opened = cache
        return cache
    }

    /// `jid`'s card as `account` cached it.
    func load(account: JID, jid: JID) throws -> VCardCache.Entry? {
        try cache().load(account: account, jid: jid)
    }

    /// One card to cache: the merged fields, and the vCard4 node's unmapped properties when they
    /// were read (nil keeps what the cache holds).
    struct Record {
        var jid: JID
        var card: VCard
        var vcard4Extras: [XMLElement]?
    }

    /// Stores freshly fetched cards and forgets those the server says are gone; warns on failure.
    func record(account: JID, cards: [Record], gone: [JID]) {
        guard !cards.isEmpty || !gone.isEmpty else { return }
        do {
            let cache = try cache()
            let now = env.now
            try cache.store(cards.map {
                VCardCache.Entry(jid: $0.jid, card: $0.card, vcard4Extras: $0.vcard4Extras.map(VCard4Extras.init),
                                 photoHash: VCardPhotoFile.hash($0.card), fetchedAt: now)
            }, account: account)
            for jid in gone { try cache.remove(account: account, jid: jid) }
        } catch {
            env.warn("could not update the vCard cache: \(ErrorMapping.failure(for: error).message)")
        }
    }
}

extension ErrorMapping {
    /// vCard service errors by kind.
    static func failure(for error: VCardServiceError) -> ToolFailure {
        switch error {
        case .notFound: return ToolFailure(.notFound, error.description)
        case .invalidCard: return ToolFailure(.failed, error.description)
        case .connection(let e): return failure(for: e)
        }
    }

    /// Profile errors: no store holds anything (4), or the store's own error.
    static func failure(for error: ProfileServiceError) -> ToolFailure {
        switch error {
        case .notFound: return ToolFailure(.notFound, error.description)
        case .vcardTemp(let e): return failure(for: e)
        case .pep(let e): return failure(for: e)
        }
    }

    /// PEP errors: unreadable items (1), or the connection's.
    static func failure(for error: PubSubError) -> ToolFailure {
        switch error {
        case .invalidItems: return ToolFailure(.failed, error.description)
        case .connection(let e): return failure(for: e)
        }
    }

    /// True when the path to the server failed (`ConnectionError.isLinkFailure`: unreachable, a
    /// timeout, a dropped connection), after which a cached answer is better than none.
    static func isLinkFailure(_ error: any Error) -> Bool {
        if let e = error as? ConnectionError { return e.isLinkFailure }
        if case .connection(let e)? = error as? VCardServiceError { return e.isLinkFailure }
        if let e = (error as? ProfileServiceError)?.connectionError { return e.isLinkFailure }
        return false
    }
}
