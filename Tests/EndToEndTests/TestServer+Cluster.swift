import Foundation
import XCTest

/// The nodes of a `--cluster` instance (XT_NODE_PORTS), for the Cluster* test classes.
extension TestServer {
    /// The running two-node cluster, for a test that spreads in-band registrations of many
    /// accounts from 127.0.0.1 over both nodes (skipped elsewhere, failed under CI=true).
    static func requireCluster(file: StaticString = #filePath, line: UInt = #line) throws -> TestServer {
        let server = try TestServer.require()
        try server.require("cluster", "the test spreads work over two ejabberd nodes")
        try server.require("register", "the test registers in-band")
        try server.require("register-unthrottled", "the test registers many accounts from 127.0.0.1")
        XCTAssertEqual(server.nodePorts.count, 2, "XT_NODE_PORTS names both nodes", file: file, line: line)
        return server
    }

    /// `HOST:PORT` of node 1 or 2, for `--server`.
    func nodeAddress(_ node: Int) -> String { "\(host):\(nodePorts[node - 1])" }

    /// `ejabberdctl registered_users` on one node, one name a line.
    func registeredUsers(node: Int, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let r = try Shell.run([Paths.root + "/scripts/test-server", "ctl", directory, "--node", String(node),
                               "registered_users", domain], timeout: 60)
        XCTAssertEqual(r.status, 0, "registered_users on node \(node): \(r.stderr)", file: file, line: line)
        return r.stdout.split(separator: "\n").map(String.init)
    }
}
