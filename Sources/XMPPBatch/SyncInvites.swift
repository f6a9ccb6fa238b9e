import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// `xmpp-register sync --invite`: each account the run creates is handed out as an invite that
/// lets its person choose their own password, instead of the generated one. The account is made
/// as without --invite (add-user with a generated password, which sync keeps in the report to
/// set the profile and rosters by logging in); then the administrator asks the server for a
/// password-reset invite bound to that address — Prosody's `mod_invites_adhoc` command, whose
/// URI (`xmpp:pupil@school?register;preauth=…`, XEP-0401) a client opens to set the account's
/// password (XEP-0077 with the token; `mod_invites_register` lets it replace the existing one).
/// XEP-0401's own create-account command makes invites for any name the person picks, which
/// would leave the file's address unmade and unmanaged: sync does not use it.
public enum SyncInvites {
    /// Prosody 13's password-reset invite command (mod_invites_adhoc); Prosody 0.12 and ejabberd have none.
    public static let node = "xmpp:prosody.im/mod_invites_adhoc#password-reset"

    /// The domains among those of `plan`'s new accounts whose server does not list the command
    /// for this administrator (XEP-0050 §2.2), sorted.
    public static func domainsWithout(_ plan: SyncPlan, on channel: any StanzaChannel) throws(AdHocError) -> [String] {
        var missing: [String] = []
        for domain in Set(plan.creations.map(\.jid.domain)).sorted() {
            let commands = try AdHocService.commands(on: channel, at: try? JID(domain))
            if !commands.contains(where: { $0.node == node }) { missing.append(domain) }
        }
        return missing
    }

    /// Makes the invite of each account `run` created for `plan` (also those of an interrupted
    /// run it continued) that has none yet beside its password, on the administrator's
    /// `channel`; the report `run.finish()` writes then carries them. Returns how many were made
    /// and, one line each, the accounts left without one (their slips show the password).
    public static func issue(_ plan: SyncPlan, run: BatchRun, on channel: any StanzaChannel) throws -> (made: Int, problems: [String]) {
        run.syncColumns.includeInvites()
        let creations = Set(plan.creations.map(\.line))
        var made = 0
        var problems: [String] = []
        for entry in try run.journal.entries() where creations.contains(entry.line) && entry.status == .created {
            guard let password = entry.generatedPassword, let jid = try? JID(entry.jid) else { continue }
            if run.syncColumns.hasInvite(jid: entry.jid, password: password) { continue }
            do {
                let invite = try make(for: jid.bare, on: channel)
                run.syncColumns.issued(invite.secret, expires: invite.expires, jid: entry.jid, password: password)
                made += 1
            } catch {
                problems.append("\(jid.bare): no invite (\(error)); its slip shows the report's password")
            }
        }
        return (made, problems)
    }

    /// One password-reset invite for `account`, checked to be an xmpp: invite for that very address.
    static func make(for account: JID, on channel: any StanzaChannel) throws -> (secret: InviteSecret, expires: String?) {
        let answer = try AdHocService.run(on: channel, node: node, at: try? JID(account.domain),
                                          values: ["accountjid": [account.description]]).answer
        guard answer.status == .completed, let uri = answer.form?.field("uri")?.values.first,
              let secret = InviteSecret(checking: uri, landingPage: answer.form?.field("landing-url")?.values.first, account: account) else {
            throw InviteFailure(description: answer.errorText ?? "the server's answer holds no xmpp: invite for \(account)")
        }
        return (secret, AccountInvite.expiry(in: answer))
    }

    struct InviteFailure: Error, CustomStringConvertible {
        var description: String
    }
}
