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
        case "vcards": VCardCompletion.answer(request, paths: paths, variables: variables)
        case "contacts":
            for jid in RosterCompletion.contacts(account: request.account, paths: paths) { Output.line(jid) }
        case "groups":
            for name in RosterCompletion.groupNames(account: request.account, paths: paths) { Output.line(name) }
        default:
            return
        }
    }
}
