import Foundation
import XCTest

/// A client library no one here wrote, driven by a Python script under Debian's /usr/bin/python3:
/// the script takes a mode, the account, the server's host, port and CA file, then its own
/// arguments, and prints one JSON object as its last line.
struct PythonPeer {
    /// The library's name in messages ("slixmpp").
    let name: String
    /// What `import` must succeed for the peer to run.
    let probeImport: String
    /// The Debian package that provides it.
    let package: String
    /// The script's source.
    let script: String

    /// Skips (fails under CI=true) where the library is not installed.
    func require() throws {
        let probe = try Shell.run(["/usr/bin/python3", "-c", "import " + probeImport])
        guard probe.status == 0 else {
            let why = "\(package) is not installed (scripts/install-deps installs it)"
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(why) }
            throw XCTSkip(why)
        }
    }

    /// Runs the peer as `account` (JID, password); its JSON answer.
    func run(_ t: ToolRunner, account: (String, String), mode: String, _ args: [String]) throws -> [String: Any] {
        let hostPort = t.server.server
        let colon = try XCTUnwrap(hostPort.lastIndex(of: ":"))
        let r = try Shell.run(["/usr/bin/python3", "-c", script, mode, account.0, account.1, String(hostPort[..<colon]),
                               String(hostPort[hostPort.index(after: colon)...]), t.server.caFile] + args, timeout: 60)
        XCTAssertEqual(r.status, 0, "\(name) \(mode): \(r.stdout) \(r.stderr)")
        let line = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], r.stdout + r.stderr)
    }
}
