import XMLTree

/// A XEP-0050 `<command xmlns='http://jabber.org/protocol/commands'/>`: a request to run a
/// command (or a stage of one), or the server's answer with its status, the actions it allows
/// next, its notes and its form.
public struct AdHocCommand: Sendable, Equatable {
    /// Where a command's session stands (XEP-0050 §6.2).
    public enum Status: String, Sendable {
        case executing, completed, canceled
    }

    /// What a request asks of the session (XEP-0050 §6.3).
    public enum Action: String, Sendable, CaseIterable {
        case execute, cancel, prev, next, complete
    }

    /// A note the server attaches (XEP-0050 §6.4): info, warn or error.
    public struct Note: Sendable, Equatable {
        /// The note's type.
        public enum Kind: String, Sendable { case info, warn, error }
        /// info when the server gave no type (the XEP's default).
        public var kind: Kind
        /// What it says.
        public var text: String

        /// Builds a note.
        public init(_ kind: Kind, _ text: String) {
            self.kind = kind
            self.text = text
        }
    }

    /// The command's node.
    public var node: String
    /// The session the server opened; nil on a first request.
    public var sessionID: String?
    /// The session's state, in answers.
    public var status: Status?
    /// What a request asks (execute when absent).
    public var action: Action?
    /// The actions the server allows next (`<actions/>`), and which one `execute` means.
    public var allowedActions: [Action]
    /// The action `execute` stands for in the next stage (`<actions execute='…'/>`).
    public var defaultAction: Action?
    /// The notes.
    public var notes: [Note]
    /// The data form (to fill in while executing, or the result once completed).
    public var form: DataForm?

    /// Builds a command payload.
    public init(node: String, sessionID: String? = nil, status: Status? = nil, action: Action? = nil,
                allowedActions: [Action] = [], defaultAction: Action? = nil, notes: [Note] = [], form: DataForm? = nil) {
        self.node = node
        self.sessionID = sessionID
        self.status = status
        self.action = action
        self.allowedActions = allowedActions
        self.defaultAction = defaultAction
        self.notes = notes
        self.form = form
    }

    /// Reads a `<command/>` element.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("command", namespace: Namespace.commands)
        node = try element.required("node", nonEmpty: true)
        sessionID = element[attribute: "sessionid"]
        if let text = element[attribute: "status"] {
            guard let s = Status(rawValue: text) else { throw .invalidAttribute(element: "command", attribute: "status", value: text) }
            status = s
        }
        if let text = element[attribute: "action"] {
            guard let a = Action(rawValue: text) else { throw .invalidAttribute(element: "command", attribute: "action", value: text) }
            action = a
        }
        allowedActions = []
        if let actions = element.child("actions", namespace: Namespace.commands) {
            allowedActions = actions.elements.compactMap { $0.namespace == Namespace.commands ? Action(rawValue: $0.name) : nil }
            if let text = actions[attribute: "execute"] {
                guard let a = Action(rawValue: text) else { throw .invalidAttribute(element: "actions", attribute: "execute", value: text) }
                defaultAction = a
            }
        }
        notes = element.children("note", namespace: Namespace.commands).map {
            Note(Note.Kind(rawValue: $0[attribute: "type"] ?? "info") ?? .info, $0.text.trimmingWhitespace())
        }
        form = try element.child("x", namespace: Namespace.dataForms).map { x throws(StanzaParseError) in try DataForm(element: x) }
    }

    /// The element to send (or, in tests, an answer to feed back).
    public var element: XMLElement {
        var e = XMLElement("command", namespace: Namespace.commands, attributes: ["node": node])
        if let sessionID { e[attribute: "sessionid"] = sessionID }
        if let status { e[attribute: "status"] = status.rawValue }
        if let action { e[attribute: "action"] = action.rawValue }
        if !allowedActions.isEmpty || defaultAction != nil {
            var actions = XMLElement("actions", namespace: Namespace.commands)
            if let defaultAction { actions[attribute: "execute"] = defaultAction.rawValue }
            for a in allowedActions { actions.append(XMLElement(a.rawValue, namespace: Namespace.commands)) }
            e.append(actions)
        }
        for note in notes {
            e.append(XMLElement("note", namespace: Namespace.commands, attributes: ["type": note.kind.rawValue], children: [.text(note.text)]))
        }
        if let form { e.append(form.element) }
        return e
    }

    /// The first request of a command (XEP-0050 §3.3), optionally answering its first form at
    /// once (servers that take a form with `execute` then skip the stage that shows it).
    public static func execute(_ node: String, form: DataForm? = nil) -> AdHocCommand {
        AdHocCommand(node: node, action: .execute, form: form)
    }

    /// The request for the next stage of `session` (an answer with `status='executing'`),
    /// sending `form` with `action`.
    public static func proceed(_ session: AdHocCommand, action: Action, form: DataForm?) -> AdHocCommand {
        AdHocCommand(node: session.node, sessionID: session.sessionID, action: action, form: form)
    }

    /// The request that cancels `session` (XEP-0050 §3.4.3).
    public static func cancel(_ session: AdHocCommand) -> AdHocCommand {
        AdHocCommand(node: session.node, sessionID: session.sessionID, action: .cancel)
    }

    /// The error notes' texts, one line.
    public var errorText: String? {
        let errors = notes.filter { $0.kind == .error }.map(\.text)
        return errors.isEmpty ? nil : errors.joined(separator: "; ").replacingLineBreaks()
    }

    /// The action that moves a session on towards completion: complete when allowed (or when
    /// the server lists no actions: XEP-0050 §3.4 single-stage), else the default, else next.
    public var forwardAction: Action {
        if allowedActions.isEmpty || allowedActions.contains(.complete) { return .complete }
        if let d = defaultAction, d != .prev, d != .cancel { return d }
        return .next
    }
}

extension String {
    /// Line breaks as `"; "`, so a server's multi-line note stays one line in errors.
    func replacingLineBreaks() -> String {
        split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map(String.init).joined(separator: "; ")
    }
}
