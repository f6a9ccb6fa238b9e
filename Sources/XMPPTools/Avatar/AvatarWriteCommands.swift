import CryptoPrimitives
import TextFormats
import Arguments
import PNGImage
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// `xmpp-avatar set|remove`: publish or clear the account's avatar, in the vCard and over PEP.
struct AvatarWriteCommands {
    let context: AccountContext
    let command: ParsedCommand
    var env: ToolEnvironment { context.environment }
    var json: Bool { context.common.json }

    /// Resizes IMAGE, stores it as the vCard PHOTO (merged), publishes it over PEP, prints its SHA-1.
    func set() throws {
        let access = command.string("access") ?? "open"
        guard ["open", "presence"].contains(access) else {
            throw ToolFailure(.usage, "invalid --access '\(access)': expected open or presence")
        }
        // The image is checked before any connection: a bad file is exit 9 without network.
        let png = try ImageFiles.resize(command.argument("IMAGE") ?? "-", options: try AvatarResizeCommand.options(command))
        let header = try AvatarPipeline.info(data: png)
        let hash = AvatarService.hash(png)
        let base64 = Base64.encode(png)

        let (connection, account) = try context.connectWithSession()
        defer { connection.close() }
        // vCard first: a server that mirrors the vCard into PEP (Prosody's vcard_legacy) republishes
        // both nodes from it, without dimensions; PEP published last keeps complete metadata.
        let vcard = try updateVCard(on: connection, account: account) { photo in
            photo?.compactBase64 == base64 && photo?.type == "image/png" ? .keep : .set(VCardPhoto(type: "image/png", base64: base64))
        }
        var outcome = PublishOptionsOutcome.accepted
        let noPEP = try Self.withoutPEP { () throws(AvatarServiceError) in
            outcome = try AvatarService.publish(on: connection, png: png, hash: hash, width: header.width,
                                                height: header.height, accessModel: access)
        }
        if let noPEP {
            guard vcard else { throw ToolFailure(.refused, "the server stores avatars neither in PEP (\(noPEP)) nor in vCards") }
            env.warn("the server has no PEP (\(noPEP)); the avatar is in the vCard only")
        } else if outcome == .ignored {
            env.warn("the server did not take publish-options; the avatar nodes keep its default access model")
        }
        let pep = noPEP == nil
        let lookup = AvatarLookup(environment: env, account: account)
        let found = FoundAvatar(jid: account, bytes: png, hash: hash, type: "image/png", width: header.width,
                                height: header.height, source: pep ? .pep : .vcard, fromCache: false)
        do { try lookup.openCache()?.store(found.entry(now: env.now), account: account) } catch { env.warn("cache not updated: \(error)") }
        if json {
            Output.line(JSONValue.object([
                ("jid", .string(account.description)), ("hash", .string(hash)), ("type", .string("image/png")),
                ("bytes", .int(png.count)), ("width", .int(header.width)), ("height", .int(header.height)),
                ("pep", .bool(pep)), ("vcard", .bool(vcard)), ("access_model", pep ? .string(access) : .null),
            ]).pretty)
        } else if !context.common.quiet {
            Output.line(hash)
        }
    }

    /// Clears the vCard PHOTO, publishes empty metadata and retracts the data items.
    func remove() throws {
        let (connection, account) = try context.connectWithSession()
        defer { connection.close() }
        let metadata = try Self.ownMetadata(connection)
        let ids = metadata?.infos.filter(\.isInDataNode).map(\.id) ?? []
        var previous: String? = ids.first
        let vcard = try updateVCard(on: connection, account: account) { photo in
            if previous == nil, let base64 = photo?.compactBase64, let bytes = Base64.decode(base64) {
                previous = AvatarService.hash(bytes)
            }
            return photo == nil ? .keep : .remove
        }
        let noPEP = try Self.withoutPEP { () throws(AvatarServiceError) in
            try AvatarService.disable(on: connection, retracting: ids)
        }
        if let noPEP, !vcard { throw ToolFailure(.refused, "the server stores avatars neither in PEP (\(noPEP)) nor in vCards") }
        let pep = noPEP == nil
        let lookup = AvatarLookup(environment: env, account: account)
        do { try lookup.openCache()?.forget(account: account, jid: account) } catch { env.warn("cache not updated: \(error)") }
        if json {
            Output.line(JSONValue.object([
                ("jid", .string(account.description)), ("removed", .bool(previous != nil)),
                ("previous_hash", .optional(previous)), ("pep", .bool(pep)), ("vcard", .bool(vcard)),
            ]).pretty)
        } else if !context.common.quiet {
            Output.line(previous == nil ? "\(account) had no avatar; it is cleared anyway." : "Removed the avatar of \(account).")
        }
    }

    /// What to do with the vCard PHOTO.
    enum PhotoChange {
        /// Leave the card alone (it already says what we want).
        case keep
        /// Put this photo in.
        case set(VCardPhoto)
        /// Take the photo out.
        case remove
    }

    /// Fetches the account's vCard and stores it back with only its PHOTO changed as `change`
    /// decides from the current one. False when the server has no vCards.
    private func updateVCard(on connection: Connection, account: JID, _ change: (VCardPhoto?) -> PhotoChange) throws -> Bool {
        try OwnVCardLock.around(account, env: env) { try mergePhoto(on: connection, change) }
    }

    private func mergePhoto(on connection: Connection, _ change: (VCardPhoto?) -> PhotoChange) throws -> Bool {
        let card = try AvatarService.vCard(on: connection, of: nil)
        let photo: VCardPhoto?
        switch change(try VCardPhoto.find(in: card)) {
        case .keep: return true
        case .set(let new): photo = new
        case .remove: photo = nil
        }
        let updated = try VCardPhoto.replacing(in: card, with: photo)
        if let refused = try Self.refusal(of: { () throws(AvatarServiceError) in try AvatarService.publishVCard(on: connection, updated) }) {
            env.warn("the server has no vCards (\(refused))")
            return false
        }
        return true
    }

    /// Runs `body`; the server's answer when it has no PEP service, nil when `body` succeeded.
    /// (Typed catches live in typed helpers: swiftc 6.3.1 crashes on them in untyped functions.)
    private static func withoutPEP(_ body: () throws(AvatarServiceError) -> Void) throws(AvatarServiceError) -> StanzaError? {
        do {
            try body()
            return nil
        } catch {
            if case .pepUnavailable(let e) = error { return e }
            throw error
        }
    }

    /// Runs `body`; the stanza error when the server does not implement the request, nil on success.
    private static func refusal(of body: () throws(AvatarServiceError) -> Void) throws(AvatarServiceError) -> StanzaError? {
        do {
            try body()
            return nil
        } catch {
            if case .connection(.stanzaError(let e)) = error, ["service-unavailable", "feature-not-implemented"].contains(e.condition) {
                return e
            }
            throw error
        }
    }

    /// The account's own avatar metadata; nil when there is none or it is unreadable (it is
    /// replaced all the same).
    private static func ownMetadata(_ connection: Connection) throws(AvatarServiceError) -> AvatarMetadata? {
        do {
            return try AvatarService.metadata(on: connection, of: nil)
        } catch {
            if case .invalidPayload = error { return nil }
            throw error
        }
    }
}
