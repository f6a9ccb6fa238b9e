import Glibc
import XMPPBatch
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// What sync does for handing accounts out: their invites (`--invite`) and the report's split
/// by group (`--report-by-group`).
extension RegisterTool.Sync {
    /// A plan with nothing to do writes no report, nor its split: said when the split's directory
    /// is not there yet, so that a first --report-by-group is not taken for a failure.
    func noteSplitNotWritten(_ output: BatchOutput) {
        guard !options.dryRun, let directory = handout.byGroup, access(directory, F_OK) != 0 else { return }
        output.note("nothing changed, so \(directory) was not written: the report and its split by group are written by "
                    + "the next sync that changes something")
    }

    /// `--invite` with accounts to create: every server they are created on must offer the
    /// password-reset invite command, checked before the plan is printed or anything is sent;
    /// otherwise exit status 4, naming the server and the ways forward.
    func requireInvites(_ plan: SyncPlan, adminLink: inout (connection: Connection, jid: JID)?) throws {
        if adminLink == nil {
            let (connection, admin) = try context.connectWithSession()
            adminLink = (connection, admin)
        }
        guard let link = adminLink else { return }
        let missing: [String]
        do { missing = try SyncInvites.domainsWithout(plan, on: link.connection) } catch {
            throw ErrorMapping.failure(for: error, account: link.jid.bare)
        }
        guard let first = missing.first else { return }
        let servers = missing.count == 1 ? "\(first)'s server offers" : "the servers of \(missing.joined(separator: ", ")) offer"
        throw ToolFailure(.notFound, "\(servers) \(link.jid.bare) no password-reset invites (\(SyncInvites.node), Prosody 13's "
                          + "mod_invites_adhoc; Prosody 0.12 and ejabberd have none), which sync --invite hands new accounts out "
                          + "with; nothing was changed: load mod_invites and mod_invites_adhoc, or run sync without --invite "
                          + "to hand out passwords")
    }

    /// After the run has created its accounts and before the report is written: their invites.
    /// An invite that cannot be made is a failure named with the way to make it by hand; the
    /// report is written all the same (the account and its password are in it).
    func issueInvites(_ plan: SyncPlan, run: BatchRun, output: BatchOutput) -> (made: Int, problems: [String]) {
        guard !plan.creations.isEmpty else { return (0, []) }
        var result: (made: Int, problems: [String])
        do {
            let (connection, _) = try context.connectWithSession()
            defer { connection.close() }
            result = try SyncInvites.issue(plan, run: run, on: connection)
        } catch {
            result = (0, ["no invites made for the new accounts: \(error); their slips show the report's passwords"])
        }
        for problem in result.problems { output.note(problem) }
        if !result.problems.isEmpty {
            output.note("an account's invite can be made by hand: xmpp-adhoc run \(SyncInvites.node) --field accountjid=JID")
        }
        return result
    }
}
