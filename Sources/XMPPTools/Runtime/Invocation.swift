import Arguments

/// One run of a tool: the parsed command line and what it resolves to.
public struct Invocation {
    /// The parsed command line.
    public let command: ParsedCommand
    /// Process-wide environment and stores.
    public let environment: ToolEnvironment
    /// The common options, typed.
    public let common: CommonOptions

    /// The account context for this run.
    public var context: AccountContext { AccountContext(environment: environment, common: common) }

    /// The password sources named on the command line and in the environment.
    public var password: PasswordSource {
        PasswordSource(file: command.string("password-file"), stdin: command.flag("password-stdin"),
                       environment: environment.variables["XMPP_PASSWORD"])
    }

    /// Builds the typed common options from a parsed command line.
    static func commonOptions(from command: ParsedCommand) throws(ToolFailure) -> CommonOptions {
        var o = CommonOptions()
        o.account = command.string("account").flatMap { $0.isEmpty ? nil : $0 }
        o.json = command.flag("json")
        if let server = command.string("server") {
            let (host, port) = try CommonOptions.parseServer(server)
            o.serverHost = host
            o.serverPort = port
        }
        o.directTLS = command.flag("direct-tls")
        o.caFile = command.string("ca-file")
        o.pin = command.string("pin")
        if let pin = o.pin { try CommonOptions.validatePin(pin) }
        o.insecure = command.flag("insecure")
        try o.checkTrustOptions()
        do {
            o.timeout = try command.int("timeout", in: 1...3600) ?? 15
        } catch {
            throw ToolFailure(.usage, error.reason.description)
        }
        o.trace = command.flag("trace")
        o.quiet = command.flag("quiet")
        o.resource = command.string("resource")
        return o
    }
}
