import Arguments
import XMPPConnection
import Glibc

/// The shared entry point: parse, dispatch, and turn every failure into one line on stderr and
/// a documented exit status. Executables are a call to `ToolMain.run` and nothing else.
public enum ToolMain {
    /// Runs a tool whose subcommands `handler` dispatches, then exits.
    public static func run(spec: ToolSpec, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                           handler: (Invocation) throws -> Void) -> Never {
        // Before any password is read: no core dump, no attaching (docs/DESIGN-NOTES.md "Threat model").
        ProcessHardening.forbidCoreDumps()
        signal(SIGPIPE, SIG_IGN)
        let variables = ToolEnvironment.processVariables()
        let code = execute(spec: spec, arguments: arguments, variables: variables, handler: handler)
        if Output.stdoutFailure == EPIPE && code == .ok { endBySIGPIPE() }
        exit(code.rawValue)
    }

    /// Ends the process as a Unix filter does when its reader went away (`| head -1`): killed
    /// by SIGPIPE, quietly (status 141 in the shell). SIGPIPE was ignored only so that sockets
    /// and standard output report EPIPE instead of killing the process mid-write.
    private static func endBySIGPIPE() {
        signal(SIGPIPE, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        raise(SIGPIPE)
    }

    /// The exit status once a failed write of standard output is taken into account: any error
    /// but EPIPE is one line on stderr and status 1 (unless the command failed otherwise first).
    static func status(_ code: ExitCode, program: String) -> ExitCode {
        guard let failure = Output.stdoutFailure, failure != EPIPE else { return code }
        Output.err("\(program): cannot write standard output: \(String(cString: strerror(failure)))")
        return code == .ok ? .failed : code
    }

    static func execute(spec: ToolSpec, arguments: [String], variables: [String: String],
                        handler: (Invocation) throws -> Void) -> ExitCode {
        status(dispatch(spec: spec, arguments: arguments, variables: variables, handler: handler), program: spec.name)
    }

    private static func dispatch(spec: ToolSpec, arguments: [String], variables: [String: String],
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
                let common = try CommonOptions(command)
                environment.quiet = common.quiet
                try handler(Invocation(command: command, environment: environment, common: common))
                return .ok
            } catch let status as StatusOnly {
                return status.code
            } catch {
                let failure = ErrorMapping.failure(for: error)
                Output.err("\(spec.name): \(failure.message)")
                return failure.code
            }
        }
    }
}
