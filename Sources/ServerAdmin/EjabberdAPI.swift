import TextFormats

/// ejabberd's mod_http_api (`/api`, on in ejabberd 24.12's packaged configuration): the
/// ejabberdctl commands as HTTPS POSTs of JSON arguments, answered with JSON, over one kept-alive
/// connection. Allowed by its `api_permissions` "admin access" from loopback, and elsewhere to an
/// administrator (HTTP basic authentication with the account's JID and password).
public final class EjabberdAPI {
    /// The API's base URL (`https://xmpp.example.org:5443/api`).
    public let url: String
    private let http: HTTPClient
    private let credentials: (user: String, password: String)?

    public init(url: String, caFile: String?, timeoutSeconds: Int, credentials: (user: String, password: String)? = nil) throws(AdminError) {
        var base = url
        while base.utf8.last == UInt8(ascii: "/") { base.removeLast() }
        self.url = base
        self.http = HTTPClient(caFile: caFile, timeoutSeconds: timeoutSeconds)
        self.credentials = credentials
    }

    /// Runs `command` with `arguments`; its JSON result. An HTTP error is `AdminError.refused`
    /// with the server's message (a JSON string, or `{"message": …}`).
    public func call(_ command: String, _ arguments: [(String, JSONValue)]) throws(AdminError) -> JSONValue {
        let (status, body) = try http.postJSON(url + "/" + command, body: .object(arguments), basicAuth: credentials)
        let reply = try? JSONParser.parse(body)
        guard status == 200 else {
            var message = String(decoding: body.prefix(500), as: UTF8.self)
            if case .string(let text)? = reply { message = text }
            if case .object(let members)? = reply, let text = members.first(where: { $0.0 == "message" })?.1, case .string(let m) = text {
                message = m
            }
            throw .refused(command: command, status: status, message: message)
        }
        guard let reply else { throw .badReply(command: command, reason: "not JSON: " + String(decoding: body.prefix(200), as: UTF8.self)) }
        return reply
    }

    /// A command whose result is a rescode: 0 is success.
    func expectSuccess(_ command: String, _ arguments: [(String, JSONValue)]) throws(AdminError) {
        let reply = try call(command, arguments)
        guard case .int(0) = reply else { throw .badReply(command: command, reason: "result \(reply.compact), not 0") }
    }

    /// A command whose result is a list of strings.
    func strings(_ command: String, _ arguments: [(String, JSONValue)]) throws(AdminError) -> [String] {
        guard case .array(let items) = try call(command, arguments) else { throw .badReply(command: command, reason: "not a list") }
        var out: [String] = []
        for item in items {
            guard case .string(let text) = item else { throw .badReply(command: command, reason: "a list item that is not text") }
            out.append(text)
        }
        return out
    }
}

/// What changes mod_shared_roster's groups (mod_admin_extra's srg_* commands): ejabberd's HTTP
/// API (`EjabberdAPI`), or ejabberdctl where the API is off (`EjabberdCtl`).
public protocol SharedRosterAdmin {
    /// The identifiers of `host`'s groups.
    func sharedGroupIDs(host: String) throws(AdminError) -> [String]
    /// Group `id` of `host`, with its members.
    func sharedGroup(id: String, host: String) throws(AdminError) -> EjabberdAPI.SharedGroup
    /// Creates group `id`, or sets its label, description and displayed groups (its members stay).
    func createSharedGroup(_ group: EjabberdAPI.SharedGroup, host: String) throws(AdminError)
    func deleteSharedGroup(id: String, host: String) throws(AdminError)
    /// Adds (or with `remove`, removes) `user`@`userHost` to group `id` of `host`.
    func setMember(user: String, userHost: String, group id: String, host: String, remove: Bool) throws(AdminError)
}

/// mod_shared_roster's groups through the API (mod_admin_extra's srg_* commands).
extension EjabberdAPI: SharedRosterAdmin {
    /// One group as the server keeps it.
    public struct SharedGroup: Sendable, Equatable {
        public var id: String
        public var label: String
        public var description: String
        /// The identifiers of the groups its members see.
        public var displays: [String]
        /// Bare JIDs.
        public var members: Set<String>

        public init(id: String, label: String, description: String, displays: [String], members: Set<String>) {
            self.id = id
            self.label = label
            self.description = description
            self.displays = displays
            self.members = members
        }
    }

    /// The identifiers of `host`'s groups.
    public func sharedGroupIDs(host: String) throws(AdminError) -> [String] {
        try strings("srg_list", [("host", .string(host))])
    }

    /// Group `id` of `host`: srg_get_info (label, description, displayed_groups, which 24.12
    /// writes as identifiers joined by "\n, \n") and srg_get_members.
    public func sharedGroup(id: String, host: String) throws(AdminError) -> SharedGroup {
        let arguments: [(String, JSONValue)] = [("group", .string(id)), ("host", .string(host))]
        guard case .array(let pairs) = try call("srg_get_info", arguments) else {
            throw .badReply(command: "srg_get_info", reason: "not a list of key and value")
        }
        var info: [String: String] = [:]
        for pair in pairs {
            guard case .object(let members) = pair else { continue }
            var key: String?, value: String?
            for (name, item) in members {
                if case .string(let text) = item { if name == "key" { key = text } else if name == "value" { value = text } }
            }
            if let key, let value { info[key] = value }
        }
        let displays = EjabberdCtl.displayed(info["displayed_groups"] ?? "")
        let members = try strings("srg_get_members", arguments)
        return SharedGroup(id: id, label: info["label"] ?? info["name"] ?? "", description: info["description"] ?? "",
                           displays: displays, members: Set(members))
    }

    /// Creates group `id`, or sets its label, description and displayed groups (its members stay).
    public func createSharedGroup(_ group: SharedGroup, host: String) throws(AdminError) {
        try expectSuccess("srg_create", [("group", .string(group.id)), ("host", .string(host)), ("label", .string(group.label)),
                                         ("description", .string(group.description)), ("display", .array(group.displays.map(JSONValue.string)))])
    }

    public func deleteSharedGroup(id: String, host: String) throws(AdminError) {
        try expectSuccess("srg_delete", [("group", .string(id)), ("host", .string(host))])
    }

    /// Adds (or with `remove`, removes) `user`@`userHost` to group `id` of `host`.
    public func setMember(user: String, userHost: String, group id: String, host: String, remove: Bool) throws(AdminError) {
        try expectSuccess(remove ? "srg_user_del" : "srg_user_add",
                          [("user", .string(user)), ("host", .string(userHost)), ("group", .string(id)), ("grouphost", .string(host))])
    }
}
