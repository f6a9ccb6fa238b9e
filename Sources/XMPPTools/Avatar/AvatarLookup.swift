import PNGImage
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// Finds avatars: PEP metadata first (data from the cache when its hash is there, XEP-0084
/// §4.4), the vCard PHOTO as fallback; or the cache alone.
struct AvatarLookup {
    let environment: ToolEnvironment
    let account: JID

    /// `text` as the bare JID whose avatar is meant: the account's own when nil; a name without
    /// `@` is that name on the account's domain.
    static func target(_ text: String?, account: JID) throws(ToolFailure) -> JID {
        guard let text else { return account.bare }
        do {
            if !text.unicodeScalars.contains("@") {
                let name = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
                return try JID(local: name, domain: account.domain)
            }
            return try JID(text).bare
        } catch {
            throw ToolFailure(.badInput, "invalid JID '\(JID.printable(text))': \(error)")
        }
    }

    /// The cache, or nil with a warning when it cannot be opened (it is disposable).
    func openCache() -> AvatarCache? {
        do {
            return AvatarCache(cache: try Cache(paths: environment.paths, areas: [.avatar]) { environment.warn($0) })
        } catch {
            environment.warn("cache unavailable: \(error)")
            return nil
        }
    }

    /// Looks `jid` up on the server through `sources`, in order. A PEP service that will not
    /// let the account read the avatar is reported (exit 8) when no later source has one.
    func fetch(_ jid: JID, sources: [AvatarSource], on connection: Connection, cache: AvatarCache?) throws -> FoundAvatar? {
        let of: JID? = jid == account.bare ? nil : jid
        var refusal: AvatarServiceError?
        for source in sources {
            do {
                let found = source == .pep ? try fromPEP(jid, of: of, connection, cache) : try fromVCard(jid, of: of, connection)
                if let found { return found }
            } catch let error as AvatarServiceError {
                guard case .readRefused = error else { throw error }
                refusal = refusal ?? error
            }
        }
        if let refusal { throw refusal }
        return nil
    }

    /// What the cache holds for `jid`, if its bytes still hash to its id and its source is allowed.
    func cached(_ jid: JID, sources: [AvatarSource], cache: AvatarCache?) -> FoundAvatar? {
        guard let cache else { return nil }
        let entry: AvatarCache.Entry?
        do { entry = try cache.load(account: account, jid: jid) } catch {
            environment.warn("cache unreadable: \(error)")
            return nil
        }
        guard let entry, let source = AvatarSource(rawValue: entry.source), sources.contains(source) else { return nil }
        let image = entry.image
        guard AvatarService.hash(image.data) == image.hash else {
            environment.warn("the cached avatar of \(jid) is damaged; fetch it again without --cached")
            return nil
        }
        return FoundAvatar(jid: jid, bytes: image.data, hash: image.hash, type: image.type, width: image.width,
                           height: image.height, source: source, fromCache: true)
    }

    private func fromPEP(_ jid: JID, of: JID?, _ connection: Connection, _ cache: AvatarCache?) throws -> FoundAvatar? {
        guard let metadata = try AvatarService.metadata(on: connection, of: of), !metadata.isDisabled else { return nil }
        guard let info = metadata.dataNodeInfo else {
            if let url = metadata.infos.first?.url { environment.warn("\(jid) publishes its avatar only at \(url) (not fetched)") }
            return nil
        }
        let id = info.id.lowercased()
        var bytes: [UInt8]
        var fromCache = false
        if let image = try? cache?.image(hash: id), AvatarService.hash(image.data) == id {
            bytes = image.data
            fromCache = true
        } else {
            guard let fetched = try AvatarService.data(on: connection, of: of, id: info.id, type: info.type) else { return nil }
            bytes = fetched.bytes
        }
        let header = try? AvatarPipeline.info(data: bytes)
        return FoundAvatar(jid: jid, bytes: bytes, hash: id, type: info.type, width: header?.width ?? info.width,
                           height: header?.height ?? info.height, source: .pep, fromCache: fromCache)
    }

    private func fromVCard(_ jid: JID, of: JID?, _ connection: Connection) throws -> FoundAvatar? {
        guard let photo = try AvatarService.vCardPhoto(on: connection, of: of) else { return nil }
        let header = try? AvatarPipeline.info(data: photo.bytes)
        let type = photo.type.flatMap { $0.isEmpty ? nil : $0 } ?? header.map { "image/" + $0.format }
        return FoundAvatar(jid: jid, bytes: photo.bytes, hash: photo.hash, type: type, width: header?.width,
                           height: header?.height, source: .vcard, fromCache: false)
    }
}
