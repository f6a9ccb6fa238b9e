import Arguments
import ServerAdmin
import TextFormats
import XMPPBatch
import XMPPStorage

/// How `shared-groups --apply` and `sync --rosters shared` reach a server's shared roster
/// groups: ejabberd's HTTP API (asking for the administrator's password when the packaged
/// api_permissions want one), or Prosody's groups file and admin shell.
struct SharedGroupsAccess {
    // The options that say how the groups are reached, declared once for `shared-groups --apply`
    // and `sync --rosters shared`.
    static let api = Option<String>("api", value: "URL", help: "ejabberd's API (default https://DOMAIN:5443/api).")
    static let ejabberdctl = Option<String>(
        "ejabberdctl", value: "COMMAND", help: "Use this ejabberdctl instead of ejabberd's API.")
    static let groupsFile = Option<String>(
        "groups-file", value: "PATH", help: "Prosody's groups_file (rewritten, then reloaded).",
        completion: .file(extensions: ["txt"]))
    static let prosodyctl = Option<String>("prosodyctl", value: "COMMAND", help: "How to run prosodyctl (default prosodyctl).")
    static let declarations: [any DeclaredOption] = [api, ejabberdctl, groupsFile, prosodyctl]

    /// The four options' values as `command` gives them.
    static func values(_ command: ParsedCommand) throws(ArgumentError)
        -> (api: String?, ejabberdctl: String?, groupsFile: String?, prosodyctl: String?) {
        (try command.value(api), try command.value(ejabberdctl), try command.value(groupsFile), try command.value(prosodyctl))
    }

    let context: AccountContext
    /// The administrator's password, for an API that wants it; never kept.
    let password: PasswordSource
    /// `--api URL` (default https://DOMAIN:5443/api).
    let api: String?
    /// `--groups-file PATH`.
    let groupsFile: String?
    /// `--prosodyctl COMMAND`.
    let prosodyctl: String
    /// `--ejabberdctl COMMAND`: ejabberd's groups through ejabberdctl instead of the API.
    var ejabberdctl: String? = nil
    /// The option that names the groups file, for errors ("--apply --for prosody").
    let needsFile: String

    /// ejabberd: the API (or with `ejabberdctl`, that) and `domain`'s groups as it reports them. When the API refuses without
    /// credentials, the administrator's (the account the command runs as) password is asked
    /// for on the terminal, or read with --password-file or XMPP_PASSWORD, and the read retried.
    func ejabberd(domain: String) throws -> (any SharedRosterAdmin, [EjabberdAPI.SharedGroup]) {
        if let ejabberdctl {
            let ctl = EjabberdCtl(command: ejabberdctl, timeoutSeconds: max(context.common.timeout, 30))
            do { return (ctl, try SharedGroupsApply.ejabberdCurrent(ctl, host: domain)) } catch {
                throw ToolFailure(.failed, error.description)
            }
        }
        guard !context.common.insecure else { throw ToolFailure(.usage, "--insecure is not for the admin API: give --ca-file for a private certificate") }
        let url = api ?? "https://\(domain):5443/api"
        do {
            let open = try EjabberdAPI(url: url, caFile: context.common.caFile, timeoutSeconds: context.common.timeout)
            if let current = try Self.readUnlessRefused(open, host: domain) { return (open, current) }
            // The packaged api_permissions let loopback in for an administrator only.
            let admin = try context.accountJID()
            let secret = try password.read(prompt: "Password for \(admin) (ejabberd's admin API): ")
            let api = try EjabberdAPI(url: url, caFile: context.common.caFile, timeoutSeconds: context.common.timeout,
                                      credentials: (admin.description, secret))
            return (api, try SharedGroupsApply.ejabberdCurrent(api, host: domain))
        } catch let error as AdminError {
            throw ToolFailure(Self.exitCode(error), error.description)
        }
    }

    /// The host's groups through `api`; nil when it refuses for want of credentials.
    private static func readUnlessRefused(_ api: EjabberdAPI, host: String) throws(AdminError) -> [EjabberdAPI.SharedGroup]? {
        do {
            return try SharedGroupsApply.ejabberdCurrent(api, host: host)
        } catch {
            if case .refused(_, let status, _) = error, status == 401 || status == 403 { return nil }
            throw error
        }
    }

    /// Prosody: the groups file's absolute path, its bytes (nil: none yet), and the admin shell.
    func prosody() throws -> (path: String, existing: [UInt8]?, shell: ProsodyShell) {
        guard let file = groupsFile else {
            throw ToolFailure(.usage, "\(needsFile) needs --groups-file PATH: the file the VirtualHost's groups_file names")
        }
        let path = PathText.absolute(file, from: context.environment.currentDirectory)
        let existing: [UInt8]?
        do { existing = try SecureFile.read(path, maxBytes: 64 << 20) } catch { throw ToolFailure(.failed, error.description) }
        return (path, existing, ProsodyShell(prosodyctl: prosodyctl, timeoutSeconds: max(context.common.timeout, 30)))
    }

    /// Applies `plan` through `server`, counting what was done; a failure says how much was.
    static func apply(_ plan: SharedGroupsPlan, through server: SharedGroupsPlan.Server,
                      made: (SharedGroupsApply.Step) -> Void = { _ in }) throws -> Int {
        var done = 0
        do {
            try plan.apply(server) { step in
                done += 1
                made(step)
            }
        } catch let error as AdminError {
            throw ToolFailure(exitCode(error), "\(done) of \(plan.steps.count) shared-group changes made: " + error.description)
        } catch let error as StorageError {
            throw ToolFailure(.failed, error.description)
        }
        return done
    }

    /// An admin interface's failure as an exit status: unreachable is a network failure (6),
    /// a refusal for want of rights 12, anything else 1.
    static func exitCode(_ error: AdminError) -> ExitCode {
        switch error {
        case .unreachable: return .network
        case .refused(_, let status, _) where status == 401 || status == 403: return .notPermitted
        default: return .failed
        }
    }
}
