import XMPPConnection
import XMPPStanzas

/// Why an ad-hoc command could not be listed, run or finished (beyond connection errors).
public enum AdHocError: Error, Sendable, CustomStringConvertible {
    /// The entity does not offer the command (or no commands at all).
    case notOffered(node: String, StanzaError?)
    /// The account may not run it (XEP-0050 §4.6 forbidden, not-authorized, not-allowed):
    /// for XEP-0133 commands, the account is not an administrator.
    case forbidden(node: String, StanzaError)
    /// The command completed with an error note and no other result (how Prosody reports
    /// "Account already exists" or "User does not exist").
    case failed(node: String, message: String)
    /// The given values do not answer the command's form; its session was cancelled.
    case badAnswer(node: String, DataFormAnswerError)
    /// The answer is not a command payload.
    case invalidReply(StanzaParseError)
    /// The command kept asking for more stages than a script can mean to answer.
    case tooManyStages(node: String, Int)
    /// The connection, or any other stanza error.
    case connection(ConnectionError)

    public var description: String {
        switch self {
        case .notOffered(let node, let e):
            return "the server does not offer the command \(node)" + (e.map { " (\($0))" } ?? "")
        case .forbidden(let node, let e): return "not allowed to run \(node) (\(e))"
        case .failed(_, let message): return message
        case .badAnswer(_, let e): return e.description
        case .invalidReply(let e): return "invalid ad-hoc command answer from the server: \(e)"
        case .tooManyStages(let node, let n): return "\(node) still asked for more after \(n) stages; cancelled"
        case .connection(let e): return e.description
        }
    }
}

/// Ad-hoc commands (XEP-0050): list an entity's commands, run one through all its stages with
/// the caller's values, cancel. Network only. The requests and the reading of their answers are
/// separate functions too, so the batch engine can pipeline them on a polled stream.
public enum AdHocService {
    /// Stages one run answers before giving up (a form that keeps coming back).
    public static let maxStages = 16

    /// The disco#items request for the command list (XEP-0050 §2.2), to `entity`.
    public static func listRequest(id: String, to entity: JID?) -> Iq {
        Iq(type: .get, id: id, to: entity, payload: DiscoItems(node: Namespace.commands).element)
    }

    /// `entity`, or the stream's server: an IQ without `to` would go to the account itself.
    static func target(_ entity: JID?, _ channel: any StanzaChannel) -> JID? {
        entity ?? (try? JID(channel.domain))
    }

    /// The commands `entity` (nil: the account's server) lists for this account.
    public static func commands(on channel: any StanzaChannel, at entity: JID? = nil) throws(AdHocError) -> [DiscoItems.Item] {
        let reply: Iq
        do { reply = try channel.request(listRequest(id: channel.makeID(), to: target(entity, channel))) } catch {
            throw refusal(error, node: Namespace.commands)
        }
        guard let payload = reply.payload else { return [] }
        do { return try DiscoItems(element: payload).items } catch { throw .invalidReply(error) }
    }

    /// The IQ carrying `command` to `entity`.
    public static func request(id: String, to entity: JID?, _ command: AdHocCommand) -> Iq {
        Iq(type: .set, id: id, to: entity, payload: command.element)
    }

    /// The command payload of a result to `request`. An empty result counts as `completed`:
    /// XEP-0133's examples answer a submitted form with one.
    public static func command(in reply: Iq, answering request: AdHocCommand) throws(AdHocError) -> AdHocCommand {
        guard let payload = reply.payload else {
            return AdHocCommand(node: request.node, sessionID: request.sessionID, status: .completed)
        }
        do { return try AdHocCommand(element: payload) } catch { throw .invalidReply(error) }
    }

    /// What a stanza error answering a command request means.
    public static func refusal(_ error: ConnectionError, node: String, firstStage: Bool = true) -> AdHocError {
        guard case .stanzaError(let e) = error else { return .connection(error) }
        return refusal(e, node: node, firstStage: firstStage)
    }

    /// What a stanza error answering a command request means: forbidden, not offered, or itself.
    /// Not offered only for a first request: once a session runs, item-not-found is about what
    /// the form named (ejabberd answers so for an account that does not exist).
    public static func refusal(_ e: StanzaError, node: String, firstStage: Bool = true) -> AdHocError {
        switch e.condition {
        case .forbidden, .notAuthorized, .notAllowed: return .forbidden(node: node, e)
        case .itemNotFound where firstStage, .featureNotImplemented, .serviceUnavailable: return .notOffered(node: node, e)
        default: return .connection(.stanzaError(e))
        }
    }

    /// The outcome of a run: the last answer (completed or canceled), and the given values no
    /// stage's form asked for (likely a misspelt field name).
    public struct Run: Sendable {
        public var answer: AdHocCommand
        public var unusedValues: [String]
    }

    /// Runs `node` at `entity` to its end: each stage's form is answered from `values` (by field
    /// name; preset and hidden values are sent back as they are) and moved on with `complete`,
    /// or `next` where the server does not allow completing yet. A stage whose form cannot be
    /// answered cancels the session and throws `badAnswer`. A completed answer whose notes are
    /// all errors throws `failed`.
    public static func run(on channel: any StanzaChannel, node: String, at entity: JID? = nil,
                           values: [String: [String]]) throws(AdHocError) -> Run {
        var answer = try send(.execute(node), on: channel, to: entity)
        var used: Set<String> = []
        var stages = 0
        while answer.status == .executing {
            stages += 1
            if stages > maxStages {
                cancelQuietly(answer, on: channel, to: entity)
                throw .tooManyStages(node: node, maxStages)
            }
            var submission: DataForm?
            if let form = answer.form {
                let names = Set(form.fields.compactMap(\.name))
                do {
                    submission = try form.submission(values.filter { names.contains($0.key) })
                } catch {
                    cancelQuietly(answer, on: channel, to: entity)
                    throw .badAnswer(node: node, error)
                }
                used.formUnion(names)
            }
            answer = try send(.proceed(answer, action: answer.forwardAction, form: submission), on: channel, to: entity)
        }
        try checkCompleted(answer)
        return Run(answer: answer, unusedValues: values.keys.filter { !used.contains($0) }.sorted())
    }

    /// Throws `failed` for a completed answer that carries only error notes (no result form).
    public static func checkCompleted(_ answer: AdHocCommand) throws(AdHocError) {
        if answer.status != .canceled, answer.form == nil, let message = answer.errorText,
           !answer.notes.contains(where: { $0.kind != .error }) {
            throw .failed(node: answer.node, message: message)
        }
    }

    /// Starts `node` at `entity`: its first answer, usually a form to fill in (`executing`).
    public static func start(_ node: String, on channel: any StanzaChannel, at entity: JID? = nil) throws(AdHocError) -> AdHocCommand {
        try send(.execute(node), on: channel, to: entity)
    }

    /// Cancels the session `answer` belongs to.
    public static func cancel(_ answer: AdHocCommand, on channel: any StanzaChannel, at entity: JID? = nil) throws(AdHocError) {
        _ = try send(.cancel(answer), on: channel, to: entity)
    }

    private static func cancelQuietly(_ answer: AdHocCommand, on channel: any StanzaChannel, to entity: JID?) {
        _ = try? send(.cancel(answer), on: channel, to: entity)
    }

    private static func send(_ command: AdHocCommand, on channel: any StanzaChannel, to entity: JID?) throws(AdHocError) -> AdHocCommand {
        let reply: Iq
        do { reply = try channel.request(request(id: channel.makeID(), to: target(entity, channel), command)) } catch {
            throw refusal(error, node: command.node, firstStage: command.sessionID == nil && command.form == nil)
        }
        return try self.command(in: reply, answering: command)
    }
}
