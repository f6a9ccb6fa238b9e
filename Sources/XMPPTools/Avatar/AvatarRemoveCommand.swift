import Arguments
import TextFormats
import XMPPServices

extension AvatarTool {
    /// `xmpp-avatar remove`: clears the account's avatar in the vCard and over PEP.
    struct Remove: ToolCommand {
        static let spec = CommandSpec(
            "remove", summary: "Remove the account's avatar: empty PEP metadata, data retracted, vCard PHOTO cleared.",
            discussion: ["Every other vCard field is kept. Removing when there is no avatar is not an error."],
            options: PasswordSource.declarations)

        let context: AccountContext
        var env: ToolEnvironment { context.environment }

        init(_ invocation: Invocation) { context = invocation.passwordContext }

        func run() throws {
            let (connection, account) = try context.connectWithSession()
            defer { connection.close() }
            let removal = try OwnVCardLock.around(account, env: env) { try AvatarPublisher.remove(on: connection) }
            if let refusal = removal.vCardRefusal { env.warn("the server has no vCards (\(refusal))") }
            let vcard = removal.vCardRefusal == nil
            if let noPEP = removal.pepRefusal, !vcard {
                throw ToolFailure(.refused, "the server stores avatars neither in PEP (\(noPEP)) nor in vCards")
            }
            let pep = removal.pepRefusal == nil
            let previous = removal.previousHash
            let lookup = AvatarLookup(environment: env, account: account)
            do { try lookup.openCache()?.forget(account: account, jid: account) } catch { env.warn("cache not updated: \(error)") }
            if context.common.json {
                Output.line(JSONValue.object([
                    ("jid", .string(account.description)), ("removed", .bool(previous != nil)),
                    ("previous_hash", .optional(previous)), ("pep", .bool(pep)), ("vcard", .bool(vcard)),
                ]).pretty)
            } else if !context.common.quiet {
                Output.line(previous == nil ? "\(account) had no avatar; it is cleared anyway." : "Removed the avatar of \(account).")
            }
        }
    }
}
