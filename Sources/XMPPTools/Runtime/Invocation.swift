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

    /// The account context of a command that declares `PasswordSource.declarations` so that a
    /// password given for the run replaces the cached session.
    var passwordContext: AccountContext {
        var context = context
        context.passwordForRun = password
        return context
    }

    /// The password sources named on the command line and in the environment.
    public var password: PasswordSource {
        PasswordSource(file: command.string(PasswordSource.fileOption.spec.long), stdin: command[PasswordSource.stdinFlag],
                       environment: environment.variables["XMPP_PASSWORD"])
    }
}
