import Arguments
import XMPPStorage

/// Answers the shells' `TOOL __complete KIND` requests from local files only: fast, offline.
enum Completion {
    static func answer(_ request: CompletionRequest, variables: [String: String]) {
        guard let paths = try? Paths(environment: variables) else { return }
        switch request.kind {
        case "accounts":
            let file = try? AccountStore(paths: paths).load()
            let names = Set(file?.accounts.keys.map { $0 } ?? []).union(SecureFile.list(paths.sessionsDirectory))
            for name in names.sorted() { Output.line(name) }
        case "vcards": VCardCompletion.answer(account: account(request, paths: paths, variables: variables), paths: paths)
        case "contacts":
            let account = account(request, paths: paths, variables: variables)
            for jid in RosterCompletion.contacts(account: account, paths: paths) { Output.line(jid) }
        case "groups":
            let account = account(request, paths: paths, variables: variables)
            for name in RosterCompletion.groupNames(account: account, paths: paths) { Output.line(name) }
        default:
            return
        }
    }

    /// The account a command of this line would use: `--account` on it, then `XMPP_ACCOUNT`
    /// when set and not empty (as the parser reads an option's environment fallback), then the
    /// active account of accounts.json.
    static func account(_ request: CompletionRequest, paths: Paths, variables: [String: String]) -> String? {
        if let account = request.account { return account }
        if let named = variables[CommonOptions.accountOption.spec.env ?? ""], !named.isEmpty { return named }
        return (try? AccountStore(paths: paths).load())?.active
    }
}
