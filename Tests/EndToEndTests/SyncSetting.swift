/// What a sync end-to-end test starts from: the server sync runs on (`SyncEndToEndTests.server()`,
/// or a skip), a runner logged in as its administrator, its domain, and a tag that keeps this
/// run's account names apart from earlier runs' on the same server.
struct SyncSetting {
    let admin: AdminServer
    let t: ToolRunner
    let domain: String
    let tag: String

    init() throws {
        admin = try SyncEndToEndTests.server()
        t = try admin.adminRunner()
        domain = t.server.domain
        tag = String(ToolRunner.username("").prefix(5))
    }

    /// `count` JIDs of this run: `PREFIX TAG x N @domain`, N from 0.
    func jids(_ prefix: String, _ count: Int) -> [String] { (0..<count).map { "\(prefix)\(tag)x\($0)@\(domain)" } }

    /// `xmpp-register sync CSV --admin --report REPORT --domain DOMAIN EXTRA…` as the administrator.
    func sync(_ csv: String, report: String, _ extra: [String] = []) throws -> RunResult {
        try t.run("xmpp-register", ["sync", csv, "--admin", "--report", report, "--domain", domain] + extra + t.serverArgs, timeout: 120)
    }
}
