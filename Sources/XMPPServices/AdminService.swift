import XMPPConnection
import XMPPStanzas

/// Service administration (XEP-0133) for one account at a time, run by an administrator through
/// ad-hoc commands: add, delete, change the password, disable, re-enable. Network only.
///
/// The servers say "exists" and "no such account" differently, and this is the one place that
/// reads them: Prosody 0.12 completes the command with an error note ("Account already exists",
/// "User does not exist") or, for delete-user, an info note listing the accounts that "could not
/// be deleted" (Prosody 13 likewise for disable-user and reenable-user); ejabberd 23.01 answers conflict, or item-not-found to the submitted form.
public enum AdminService {
    /// What the server did with one account.
    public enum Outcome: Sendable, Equatable {
        /// Done as asked.
        case done
        /// add-user: the account exists already.
        case exists
        /// delete, change, disable, re-enable: there is no such account.
        case noSuchAccount
    }

    /// Runs `command` for `account` (with `password` for add-user and change-user-password) on
    /// the administrator's stream, addressed to the account's domain.
    public static func perform(_ command: ServiceAdministration.Command, account: JID, password: String? = nil,
                               on channel: any StanzaChannel) throws(AdHocError) -> Outcome {
        let values = ServiceAdministration.values(for: command, account: account, password: password)
        let entity = try? JID(account.domain)
        let answer: AdHocCommand
        do {
            answer = try AdHocService.run(on: channel, node: command.node, at: entity, values: values).answer
        } catch {
            if let outcome = outcome(of: error, command) { return outcome }
            throw error
        }
        return outcome(of: answer, command)
    }

    /// Whether the server of `domain` lists `command` for this administrator (XEP-0050 §2.2):
    /// Prosody 13 lists disable-user, Prosody 0.12 and ejabberd do not.
    public static func offers(_ command: ServiceAdministration.Command, domain: String,
                              on channel: any StanzaChannel) throws(AdHocError) -> Bool {
        try AdHocService.commands(on: channel, at: try? JID(domain)).contains { $0.node == command.node }
    }

    /// The outcome a completed answer means (error notes that say neither are `failed` before this).
    public static func outcome(of answer: AdHocCommand, _ command: ServiceAdministration.Command) -> Outcome {
        // Prosody completes the commands that take a list of accounts, naming those it could not
        // delete (0.12), disable or re-enable (13: "could not be disabled", "could not be enabled").
        let listCommands: [ServiceAdministration.Command] = [.deleteUser, .disableUser, .reenableUser]
        if listCommands.contains(command), answer.notes.contains(where: { $0.text.contains("could not be ") }) { return .noSuchAccount }
        return .done
    }

    /// The outcome an error means, when it is one of the answers above; nil for a real failure.
    public static func outcome(of error: AdHocError, _ command: ServiceAdministration.Command) -> Outcome? {
        switch error {
        case .failed(_, let message):
            if message.contains("already exists") { return command == .addUser ? .exists : nil }
            if message.contains("does not exist") || message.contains("could not be deleted") {
                return command == .addUser ? nil : .noSuchAccount
            }
            return nil
        case .connection(.stanzaError(let e)):
            if e.condition == .conflict && command == .addUser { return .exists }
            if e.condition == .itemNotFound && command != .addUser { return .noSuchAccount }
            return nil
        default:
            return nil
        }
    }
}
