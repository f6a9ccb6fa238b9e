import Foundation
import XCTest
import XMPPConnection
import XMPPStanzas
import XMPPStorage
@testable import XMPPTools

/// How remembered connection settings combine with the command line, what a login keeps, and
/// how they are shown.
final class RememberedSettingsTests: XCTestCase {
    private let pin = "sha256/" + Data(count: 32).base64EncodedString()
    private let stored = AccountSettings(server: "xmpp.example.org", port: 5223, directTLS: true, caFile: "/etc/ca.pem",
                                         pin: "sha256/" + Data(repeating: 1, count: 32).base64EncodedString(), usedSCRAM: true)

    private func settings(_ change: (inout CommonOptions) -> Void, stored: AccountSettings?) throws -> AccountSettings {
        var common = CommonOptions()
        change(&common)
        let environment = try ToolEnvironment(program: "xmpp-login", variables: ["HOME": "/nonexistent"])
        return try AccountContext(environment: environment, common: common)
            .settings(for: try JID("a@example.org"), stored: stored)
    }

    func testNoOptionsUseWhatIsRemembered() throws {
        XCTAssertEqual(try settings({ _ in }, stored: stored), stored)
    }

    /// A remembered --direct-tls must not apply to a new --server on a STARTTLS port.
    func testServerReplacesTheWholeWhereGroup() throws {
        let s = try settings({ $0.serverHost = "127.0.0.1"; $0.serverPort = 5222 }, stored: stored)
        XCTAssertEqual(s.server, "127.0.0.1")
        XCTAssertEqual(s.port, 5222)
        XCTAssertFalse(s.directTLS)
        XCTAssertEqual(s.caFile, stored.caFile)
        XCTAssertEqual(s.pin, stored.pin)
        let direct = try settings({ $0.directTLS = true }, stored: AccountSettings(server: "h", port: 5222))
        XCTAssertNil(direct.server)
        XCTAssertNil(direct.port)
        XCTAssertTrue(direct.directTLS)
    }

    func testPinReplacesTheWholeTrustGroup() throws {
        let s = try settings({ $0.pin = pin }, stored: stored)
        XCTAssertEqual(s.pin, pin)
        XCTAssertNil(s.caFile)
        XCTAssertEqual(s.server, stored.server)
        XCTAssertTrue(s.usedSCRAM)
    }

    func testInsecureIsForThisRunOnly() throws {
        let s = try settings({ $0.insecure = true }, stored: stored)
        XCTAssertTrue(s.insecure)
        XCTAssertNil(s.caFile)
        XCTAssertNil(s.pin)
        let kept = AccountContext.remembered(s, over: stored)
        XCTAssertFalse(kept.insecure)
        XCTAssertEqual(kept.caFile, stored.caFile)
        XCTAssertEqual(kept.pin, stored.pin)
        XCTAssertNil(AccountContext.remembered(try settings({ $0.insecure = true }, stored: nil), over: nil).pin)
        var legacy = stored
        legacy.insecure = true
        XCTAssertFalse(try settings({ _ in }, stored: legacy).insecure, "a stored insecure must not apply")
    }

    func testLoginKeepsWhatItUsed() throws {
        let s = try settings({ $0.pin = pin }, stored: stored)
        let kept = AccountContext.remembered(s, over: stored)
        XCTAssertEqual(kept.pin, pin)
        XCTAssertNil(kept.caFile)
        XCTAssertTrue(kept.usedSCRAM)
    }

    func testInsecureIsNeitherWrittenNorRead() throws {
        var s = AccountSettings(server: "h", pin: pin)
        s.insecure = true
        let json = s.json.compact
        XCTAssertFalse(json.contains("insecure"), json)
        let old = #"{"server": "h", "insecure": true, "pin": "\#(pin)", "used_scram": true}"#
        let decoded = try AccountSettings(jsonBytes: Array(old.utf8))
        XCTAssertFalse(decoded.insecure)
        XCTAssertEqual(decoded.pin, pin)
        XCTAssertTrue(decoded.usedSCRAM)
    }

    func testInsecureWithPinOrCAFileIsAUsageError() {
        var common = CommonOptions()
        common.insecure = true
        XCTAssertNoThrow(try common.checkTrustOptions())
        common.pin = pin
        XCTAssertThrowsError(try common.checkTrustOptions()) { error in
            let failure = ErrorMapping.failure(for: error)
            XCTAssertEqual(failure.code, .usage)
            XCTAssertEqual(failure.message, "--insecure cannot be combined with --pin: it would switch off the check that option asks for")
        }
        common.caFile = "ca.pem"
        XCTAssertThrowsError(try common.checkTrustOptions()) { error in
            XCTAssertEqual(ErrorMapping.failure(for: error).message,
                           "--insecure cannot be combined with --pin and --ca-file: it would switch off the check they ask for")
        }
        common.insecure = false
        XCTAssertNoThrow(try common.checkTrustOptions())
    }

    func testShownAsOptionsAndJSON() {
        XCTAssertEqual(RememberedSettings.text(nil), "none (SRV lookup, system trust store)")
        XCTAssertEqual(RememberedSettings.text(AccountSettings(usedSCRAM: true)), "none (SRV lookup, system trust store)")
        XCTAssertEqual(RememberedSettings.text(stored),
                       "--server xmpp.example.org:5223 --direct-tls --ca-file /etc/ca.pem --pin \(stored.pin ?? "")")
        XCTAssertEqual(RememberedSettings.server(AccountSettings(server: "::1", port: 5222)), "[::1]:5222")
        XCTAssertEqual(RememberedSettings.server(AccountSettings(server: "h")), "h")
        XCTAssertEqual(RememberedSettings.json(AccountSettings(server: "h", port: 1)).compact,
                       #"{"server":"h:1","servers":["h:1"],"direct_tls":false,"ca_file":null,"pin":null}"#)
    }

    /// Every --server of a log-in is remembered in its order, so a later command fails over as
    /// the log-in did (issue 27: only the first, dead one was tried).
    func testEveryServerIsRememberedInOrder() throws {
        let s = try settings({
            $0.serverHost = "dead.example"
            $0.serverPort = 5222
            $0.moreServers = [ServerAddress(host: "live.example", port: 5322), ServerAddress(host: "::1", port: nil)]
        }, stored: stored)
        XCTAssertEqual(s.fallbackServers, [FallbackServer(host: "live.example", port: 5322), FallbackServer(host: "::1", port: nil)])
        let environment = try ToolEnvironment(program: "xmpp-login", variables: ["HOME": "/nonexistent"])
        let later = AccountContext(environment: environment, common: CommonOptions())
        let used = try later.settings(for: try JID("a@example.org"), stored: AccountContext.remembered(s, over: stored))
        XCTAssertEqual(later.moreServers(for: used), [ServerAddress(host: "live.example", port: 5322), ServerAddress(host: "::1", port: nil)])
        XCTAssertEqual(RememberedSettings.servers(used), ["dead.example:5222", "live.example:5322", "[::1]"])
        XCTAssertEqual(try AccountSettings(jsonBytes: Array(used.json.compact.utf8)), used, "written and read back")
        // A new --server replaces them all.
        let replaced = try settings({ $0.serverHost = "other.example" }, stored: used)
        XCTAssertEqual(replaced.fallbackServers, [])
    }
}
