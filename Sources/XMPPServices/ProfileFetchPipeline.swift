import XMLTree
import XMPPConnection
import XMPPStanzas

/// Fetches many JIDs' profiles over one connection: per JID one request per store asked for,
/// up to `window` JIDs in flight, each window sent in one write; replies are handed out in
/// request order. A JID whose every store is empty is `.notFound`. After a connection failure
/// every remaining JID fails with that error, without sending more.
public struct ProfileFetchPipeline {
    private struct Pending {
        var jid: JID
        var ids: [(ProfileStore, String)]
    }

    private let connection: any StanzaChannel
    private let jids: [JID]
    private let stores: [ProfileStore]
    private var nextIndex = 0
    private var inFlight: [Pending] = []
    private let window: Int
    private var broken: ConnectionError?

    /// Prepares to fetch `jids` (bare JIDs of others; order is kept) from `stores`.
    public init(connection: any StanzaChannel, jids: [JID], stores: [ProfileStore] = ProfileStore.allCases, window: Int = 32) {
        self.connection = connection
        self.jids = jids
        self.stores = stores
        self.window = max(1, window)
    }

    /// The next JID and its stores or error, in the order given; nil when all are answered.
    public mutating func next() -> (jid: JID, result: Result<StoredProfile, ProfileServiceError>)? {
        if broken == nil { fill() }
        guard !inFlight.isEmpty else {
            guard let broken, nextIndex < jids.count else { return nil }
            nextIndex += 1
            return (jids[nextIndex - 1], .failure(.vcardTemp(.connection(broken))))
        }
        let pending = inFlight.removeFirst()
        if let broken { return (pending.jid, .failure(.vcardTemp(.connection(broken)))) }
        var stored = StoredProfile()
        var failure: ProfileServiceError?
        var refused: [ProfileStore] = []
        for (store, id) in pending.ids {
            do throws(ProfileServiceError) {
                if try !read(store, id: id, jid: pending.jid, into: &stored) { refused.append(store) }
            } catch {
                // Every reply is read, so the stream stays in step; the first failure is the answer.
                if failure == nil { failure = error }
                if let e = error.connectionError, !Self.isStanzaLevel(e) { broken = e; break }
            }
        }
        if let failure { return (pending.jid, .failure(failure)) }
        if stored.isEmpty { return (pending.jid, .failure(.notFound(pending.jid, refused: refused))) }
        return (pending.jid, .success(stored))
    }

    /// Reads one store's reply into `stored`; false when its access model refused this account
    /// (a node it may not read is no store for it, but the answer says why nothing was found).
    private func read(_ store: ProfileStore, id: String, jid: JID, into stored: inout StoredProfile) throws(ProfileServiceError) -> Bool {
        switch store {
        case .vcardTemp:
            do {
                stored.vcardTemp = try VCardService.reply(on: connection, id: id, jid: jid)
            } catch {
                if case .notFound = error { return true }
                throw .vcardTemp(error)
            }
        case .vcard4:
            return try readPEP(Namespace.vcard4Node, id: id, ProfileService.vcard4, into: &stored.vcard4)
        case .nick:
            return try readPEP(Namespace.nick, id: id, ProfileService.nickname, into: &stored.nick)
        }
        return true
    }

    /// Reads the reply for the PEP `node` into `value` through `parse`; false when the node's
    /// access model refused this account.
    private func readPEP<T>(_ node: String, id: String, _ parse: ([PubSubItem]?) throws(PubSubError) -> T,
                            into value: inout T) throws(ProfileServiceError) -> Bool {
        do throws(PubSubError) {
            value = try parse(PubSubClient.itemsReply(on: connection, id: id, node: node))
        } catch {
            if PubSubClient.isRefusal(error) { return false }
            throw .pep(error)
        }
        return true
    }

    /// Sends requests until `window` JIDs are in flight, in one write.
    private mutating func fill() {
        var batch: [XMLElement] = []
        while inFlight.count < window, nextIndex < jids.count {
            let jid = jids[nextIndex]
            nextIndex += 1
            var pending = Pending(jid: jid, ids: [])
            for store in stores {
                let id = connection.makeID()
                pending.ids.append((store, id))
                switch store {
                case .vcardTemp: batch.append(VCardService.request(for: jid, id: id).element)
                case .vcard4, .nick:
                    batch.append(PubSubClient.itemsRequest(jid: jid, node: ProfileService.node(of: store) ?? "", id: id, maxItems: 1).element)
                }
            }
            inFlight.append(pending)
        }
        guard !batch.isEmpty else { return }
        do { try connection.send(batch) } catch { broken = error }
    }

    private static func isStanzaLevel(_ e: ConnectionError) -> Bool {
        if case .stanzaError = e { return true }
        return false
    }
}
