import Arguments
#if canImport(Glibc)
import Glibc
#endif

/// The shared entry point: parse, dispatch, and turn every failure into one line on stderr and
/// a documented exit status. Executables are a call to `ToolMain.run` and nothing else.
public enum ToolMain {
    /// Runs a tool whose subcommands `handler` dispatches, then exits.
    public static func run(spec: ToolSpec, handler: (Invocation) throws -> Void) -> Never {
        signal(SIGPIPE, SIG_IGN)
        let variables = ToolEnvironment.processVariables()
        let code = execute(spec: spec, arguments: Array(CommandLine.arguments.dropFirst()), variables: variables, handler: handler)
        exit(code.rawValue)
    }

    static func execute(spec: ToolSpec, arguments: [String], variables: [String: String],
                        handler: (Invocation) throws -> Void) -> ExitCode {
        let outcome: ParseOutcome
        do {
            outcome = try ArgumentParser.parse(arguments[...], spec: spec, environment: variables)
        } catch {
            Output.err(error.description)
            Output.err(error.hint)
            return .usage
        }
        switch outcome {
        case .help(let text):
            Output.out(text)
            return .ok
        case .version(let text):
            Output.line(text)
            return .ok
        case .complete(let request):
            Completion.answer(request, variables: variables)
            return .ok
        case .run(let command):
            do {
                let environment = try ToolEnvironment(program: spec.name, variables: variables)
                let common = try Invocation.commonOptions(from: command)
                environment.quiet = common.quiet
                try handler(Invocation(command: command, environment: environment, common: common))
                return .ok
            } catch {
                let failure = ErrorMapping.failure(for: error)
                Output.err("\(spec.name): \(failure.message)")
                return failure.code
            }
        }
    }
}
