import Arguments
import PNGImage
import TextFormats
import XMPPServices

extension AvatarTool {
    /// `xmpp-avatar set IMAGE`: resizes IMAGE and publishes it as the account's avatar, in the
    /// vCard and over PEP; prints its SHA-1.
    struct Set: ToolCommand {
        static let access = Option<AvatarAccessModel>.choice(
            "access", value: "MODEL", help: "Who may fetch it over PEP: open (anyone, as most clients expect) or presence (contacts only).",
            default: .open)

        static let spec = CommandSpec(
            "set", summary: "Resize IMAGE and publish it as the account's avatar (PEP and vCard); print its SHA-1.",
            discussion: [
                "The vCard is fetched, only its PHOTO is replaced (TYPE image/png and BINVAL), and it is stored back. "
                    + "Then the PNG is published to urn:xmpp:avatar:data and its metadata (id, bytes, width, height, "
                    + "type) to urn:xmpp:avatar:metadata, asking with publish-options for the access model given by "
                    + "--access. A node configured otherwise is reconfigured; a server that refuses publish-options "
                    + "gets the items without them. Setting the same image again is harmless.",
                "The vCard goes first because servers that sync the vCard to PEP (Prosody's vcard_legacy) republish "
                    + "the PEP nodes from it, without the dimensions; publishing PEP last leaves the metadata complete.",
            ],
            options: [AvatarImageOptions.size, AvatarImageOptions.fit, access] + PasswordSource.declarations,
            positionals: [AvatarImageOptions.image],
            examples: [Example("xmpp-avatar set me.jpg", "Publish a photo as the avatar, cropped to 100x100.")])

        let context: AccountContext
        let access: AvatarAccessModel
        let options: ResizeOptions
        let image: String
        var env: ToolEnvironment { context.environment }

        init(_ invocation: Invocation) throws {
            context = invocation.passwordContext
            access = try invocation.command.value(Self.access) ?? .open
            options = try AvatarImageOptions.resizeOptions(invocation.command)
            image = AvatarImageOptions.path(invocation.command)
        }

        func run() throws {
            if image == "-" { try context.passwordForRun?.refuseStandardInput(sharedWith: "the image") }
            // The image is checked before any connection: a bad file is exit 9 without network.
            let png = try ImageFiles.resize(image, options: options)
            let header = try AvatarPipeline.info(data: png)

            let (connection, account) = try context.connectWithSession()
            defer { connection.close() }
            let published = try OwnVCardLock.around(account, env: env) {
                try AvatarPublisher.publish(png: png, width: header.width, height: header.height, accessModel: access, on: connection)
            }
            if let refusal = published.vCardRefusal { env.warn("the server has no vCards (\(refusal))") }
            let vcard = published.vCardRefusal == nil
            if let noPEP = published.pepRefusal {
                guard vcard else { throw ToolFailure(.refused, "the server stores avatars neither in PEP (\(noPEP)) nor in vCards") }
                env.warn("the server has no PEP (\(noPEP)); the avatar is in the vCard only")
            } else if published.accessModelOutcome == .ignored {
                env.warn("the server did not take publish-options; the avatar nodes keep its default access model")
            }
            let pep = published.pepRefusal == nil
            let hash = published.hash
            let lookup = AvatarLookup(environment: env, account: account)
            let found = FoundAvatar(jid: account, bytes: png, hash: hash, type: "image/png", width: header.width,
                                    height: header.height, source: pep ? .pep : .vcard, fromCache: false)
            do { try lookup.openCache()?.store(found.entry(now: env.now), account: account) } catch { env.warn("cache not updated: \(error)") }
            if context.common.json {
                Output.line(JSONValue.object([
                    ("jid", .string(account.description)), ("hash", .string(hash)), ("type", .string("image/png")),
                    ("bytes", .int(png.count)), ("width", .int(header.width)), ("height", .int(header.height)),
                    ("pep", .bool(pep)), ("vcard", .bool(vcard)), ("access_model", pep ? .string(access.rawValue) : .null),
                ]).pretty)
            } else if !context.common.quiet {
                Output.line(hash)
            }
        }
    }
}
