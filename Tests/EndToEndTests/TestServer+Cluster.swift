import Foundation
import XCTest

/// The nodes of a `--cluster` instance (XT_NODE_PORTS), for the Cluster* test classes.
extension TestServer {
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
