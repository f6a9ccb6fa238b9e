import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// `--admin`: XEP-0133 commands (add, delete or re-password an account) or XEP-0401
/// create-account invites as a kind of batch request, over streams authenticated as the
/// administrator. Each stream runs its command once to learn the server's form (and cancels
/// that session), then each row's `execute` carries that form filled in; a server that answers
/// with its form anyway gets it answered in a further stage.
final class AdminRequests: RequestKind {
    typealias Handshake = DataForm

    let mode: BatchMode
    /// `--invite`: each row's request is XEP-0401 create-account, which takes no form.
    let invite: Bool
    let command: ServiceAdministration.Command
    private var node: String { invite ? AdminRequests.inviteNode : command.node }
    /// The account-invite command (XEP-0401 over XEP-0050).
    static let inviteNode = Namespace.invite + "#create-account"
    /// Rows whose add-user went out on a stream that dropped unanswered: the batch logs into
    /// each before sending it again (BatchRunner). Sent again at once, one the first request had
    /// made met `conflict`, and a server that then keeps the account unusable in its auth cache
    /// failed the log-in that checks it for an hour (docs/DESIGN-NOTES.md "Provisioning").
    private(set) var checkFirst: [Int] = []
    /// Each domain's JID, parsed once (a JID parse runs PRECIS and IDNA, the costliest step of
    /// a row; docs/DESIGN-NOTES.md "Batch").
    private var targets: [String: JID?] = [:]

    init(mode: BatchMode, invite: Bool) {
        self.mode = mode
        self.invite = invite
        command = AdminRequests.command(for: mode)
    }

    /// The XEP-0133 command a batch mode runs.
    static func command(for mode: BatchMode) -> ServiceAdministration.Command {
        switch mode {
        case .create: return .addUser
        case .delete: return .deleteUser
        case .passwd: return .changeUserPassword
        }
    }

    /// Whether an unanswered request for `item` is checked by logging in before it is sent again
    /// (`checkFirst`): add-user rows with their password known. Invites make no account to log into.
    static func logsInBeforeResending(_ item: WorkItem, mode: BatchMode, invite: Bool) -> Bool {
        mode == .create && !invite && item.password != nil
    }

    var recyclesStreams: Bool { false }

    func begin(on link: PolledConnection, id: String) -> StreamBeginning<DataForm> {
        // Running create-account makes an invite: there is no form to learn first.
        if invite { return .ready(DataForm(type: "form", fields: [])) }
        return .request(AdHocService.request(id: id, to: try? JID(link.connection.domain), .execute(command.node)).element)
    }

    /// The stream's form for the command, learned once; its session is cancelled at once (the
    /// answer to that is ignored). Not permitted, or a command the server does not offer, ends the run.
    func handshake(from reply: Iq, on link: PolledConnection) throws -> HandshakeOutcome<DataForm> {
        if let error = reply.error {
            if error.isThrottle { return .throttled(error) }
            throw AdHocService.refusal(error, node: command.node)
        }
        let answer = try AdHocService.command(in: reply, answering: .execute(command.node))
        guard answer.status == .executing, let form = answer.form else {
            throw AdHocError.invalidReply(.invalidContent("\(command.node) answered without a form to fill in"))
        }
        let cancel = AdHocService.request(id: link.connection.makeID(), to: try? JID(link.connection.domain), .cancel(answer))
        return .ready(form, then: [cancel.element])
    }

    func request(_ index: Int, id: String, handshake template: DataForm, engine: BatchEngine<AdminRequests>) -> RowRequest {
        if invite { return .send(AdHocService.request(id: id, to: target(index, engine), .execute(node)).element, generated: nil) }
        let (values, fresh) = values(index, engine)
        let form: DataForm
        do { form = try ServiceAdministration.answer(template, values: values) } catch {
            return .failed("the server's \(command.rawValue) form: \(error)")
        }
        if let fresh { engine.setPassword(fresh, of: index, newPassword: mode == .passwd) }
        return .send(AdHocService.request(id: id, to: target(index, engine), .execute(command.node, form: form)).element,
                     generated: fresh)
    }

    func reply(_ reply: Iq, to request: InFlightRequest, on stream: EngineStream<AdminRequests>, engine: BatchEngine<AdminRequests>) throws {
        let index = request.item
        if let error = reply.error { return try refused(error, index: index, engine: engine) }
        let answer: AdHocCommand
        do { answer = try AdHocService.command(in: reply, answering: .execute(node)) } catch {
            return engine.record(index, .failed, error: error.description)
        }
        if answer.status == .executing { return nextStage(answer, after: request, on: stream, engine: engine) }
        engine.progressed(stream)
        if invite { return try recordInvite(answer, index, engine) }
        do {
            try AdHocService.checkCompleted(answer)
        } catch {
            guard let known = AdminService.outcome(of: error, command) else {
                return engine.record(index, .failed, error: error.description)
            }
            return record(known, index, engine)
        }
        record(AdminService.outcome(of: answer, command), index, engine)
    }

    func unanswered(_ index: Int, after error: ConnectionError, engine: BatchEngine<AdminRequests>) {
        if AdminRequests.logsInBeforeResending(engine.items[index], mode: mode, invite: invite) {
            engine.setUncertain(index)
            checkFirst.append(index)
        } else {
            engine.requeue(index, because: error.description, uncertainNow: true, journal: false)
        }
    }

    func endsRun(opening error: ConnectionError) -> Bool { error.isAuthRejection }

    /// The values of row `index`'s command; a generated password is made (and returned) only
    /// now, and the same values are made again for a later stage from the one kept.
    private func values(_ index: Int, _ engine: BatchEngine<AdminRequests>) -> (values: [String: [String]], generated: String?) {
        let item = engine.items[index]
        switch mode {
        case .create:
            let password = item.password ?? BatchInput.generatePassword()
            return (ServiceAdministration.values(for: command, account: item.row.jid, password: password),
                    item.password == nil ? password : nil)
        case .passwd:
            let password = item.newPassword ?? BatchInput.generatePassword()
            return (ServiceAdministration.values(for: command, account: item.row.jid, password: password),
                    item.newPassword == nil ? password : nil)
        case .delete:
            return (ServiceAdministration.values(for: command, account: item.row.jid), nil)
        }
    }

    /// The server showed its form instead of taking ours with `execute`: answer it.
    private func nextStage(_ answer: AdHocCommand, after request: InFlightRequest, on stream: EngineStream<AdminRequests>,
                           engine: BatchEngine<AdminRequests>) {
        let index = request.item
        guard request.stage < AdHocService.maxStages, let link = stream.link else {
            return engine.record(index, .failed, error: "\(command.rawValue) still asked for more after \(request.stage) stages")
        }
        var form: DataForm?
        if let shown = answer.form {
            do { form = try ServiceAdministration.answer(shown, values: values(index, engine).values) } catch {
                return engine.record(index, .failed, error: "the server's \(command.rawValue) form: \(error)")
            }
        }
        let id = link.connection.makeID()
        let iq = AdHocService.request(id: id, to: target(index, engine), .proceed(answer, action: answer.forwardAction, form: form))
        engine.sendNextStage(iq.element, id: id, after: request, on: stream)
    }

    private func refused(_ error: StanzaError, index: Int, engine: BatchEngine<AdminRequests>) throws {
        switch AdHocService.refusal(error, node: node, firstStage: invite) {
        case .forbidden: throw AdHocError.forbidden(node: node, error)
        case .notOffered(let n, let e): throw AdHocError.notOffered(node: n, e)
        default: break
        }
        if error.isThrottle { return engine.throttle(index, error) }
        engine.answered()
        if let known = AdminService.outcome(of: .connection(.stanzaError(error)), command) { return record(known, index, engine) }
        engine.record(index, .failed, error: error.description)
    }

    /// An invite's URI (and landing page) goes into the journal's secret column, then the row is `invited`.
    private func recordInvite(_ answer: AdHocCommand, _ index: Int, _ engine: BatchEngine<AdminRequests>) throws {
        guard answer.status == .completed, let uri = answer.form?.field("uri")?.values.first, !uri.isEmpty else {
            return engine.record(index, .failed, error: answer.errorText ?? "the server's answer holds no invite URI")
        }
        let line = engine.items[index].row.line
        let domain = engine.items[index].row.jid.domain
        guard let secret = InviteSecret(checking: uri, landingPage: answer.form?.field("landing-url")?.values.first, domain: domain) else {
            return engine.record(index, .failed, error: "the server's answer holds no xmpp: invite URI for \(domain)")
        }
        try engine.flush()
        try engine.recorder.markSent(lines: [line], generated: [line: secret.journalText])
        let expires = answer.form?.field("expire")?.values.first
        engine.record(index, .invited, note: expires.map { "valid until " + $0 })
    }

    /// The row's outcome for what the server did.
    private func record(_ result: AdminService.Outcome, _ index: Int, _ engine: BatchEngine<AdminRequests>) {
        let item = engine.items[index]
        switch (mode, result) {
        case (.create, .done):
            engine.recordCreated(index, sentFields: [:])
        case (.create, _):
            engine.recordExists(index)
        case (.delete, .noSuchAccount) where !item.uncertain:
            engine.record(index, .deleted, note: "no such account")
        case (.delete, _):
            engine.record(index, .deleted)
        case (.passwd, .done):
            engine.record(index, .changed, csvPasswordSet: item.source == .csv)
        case (.passwd, _):
            engine.record(index, .failed, error: "no such account")
        }
    }

    private func target(_ index: Int, _ engine: BatchEngine<AdminRequests>) -> JID? {
        let domain = engine.items[index].row.jid.domain
        if let known = targets[domain] { return known }
        let parsed = try? JID(domain)
        targets[domain] = parsed
        return parsed
    }
}
