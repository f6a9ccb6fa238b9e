import Arguments
import XCTest
import XMPPConnection
import XMPPServices
import XMPPStanzas
@testable import XMPPTools

/// xmpp-avatar's pure parts: whose avatar a JID argument means, --source, and exit statuses.
final class AvatarToolTests: XCTestCase {
    private let account = try! JID("alice@example.org")

    func testBareNameIsOnTheAccountsDomain() throws {
        XCTAssertEqual(try AvatarLookup.target(nil, account: account).description, "alice@example.org")
        XCTAssertEqual(try AvatarLookup.target("bob", account: account).description, "bob@example.org")
        XCTAssertEqual(try AvatarLookup.target("Bob/phone", account: account).description, "bob@example.org")
        XCTAssertEqual(try AvatarLookup.target("carol@other.example/desk", account: account).description, "carol@other.example")
        XCTAssertThrowsError(try AvatarLookup.target("a b", account: account)) {
            XCTAssertEqual(($0 as? ToolFailure)?.code, .badInput)
        }
        XCTAssertThrowsError(try AvatarLookup.target("@example.org", account: account)) {
            XCTAssertEqual(($0 as? ToolFailure)?.code, .badInput)
        }
    }

    func testSourcesInOrder() throws {
        XCTAssertEqual(try places("info"), [.pep, .vcard])
        XCTAssertEqual(try places("info --source auto"), [.pep, .vcard])
        XCTAssertEqual(try places("get --source vcard"), [.vcard])
        XCTAssertEqual(try places("info --source pep"), [.pep])
        XCTAssertThrowsError(try places("info --source ldap")) { error in
            XCTAssertEqual((error as? ArgumentError)?.reason,
                           .invalidValue(option: "--source", value: "ldap", expected: "one of auto, pep, vcard"))
        }
    }

    /// Where `--source` in `args` says to look, as the command line is parsed.
    private func places(_ args: String) throws -> [AvatarSource] {
        let words = args.split(separator: " ").map(String.init)
        guard case .run(let command) = try ArgumentParser.parse(words[...], spec: AvatarTool.spec, environment: [:]) else {
            XCTFail("\(args) does not run")
            return []
        }
        return (try command.value(AvatarQuery.source) ?? .auto).places
    }

    func testAvatarServiceErrorsMapToExitStatuses() {
        let code = { (e: AvatarServiceError) in ErrorMapping.failure(for: e as any Error).code }
        XCTAssertEqual(code(.hashMismatch(expected: "a", actual: "b")), .failed)
        XCTAssertEqual(code(.invalidBase64(.vcard)), .failed)
        XCTAssertEqual(code(.invalidPayload("avatar metadata", .missingChild(element: "a", child: "b"))), .failed)
        XCTAssertEqual(code(.pepUnavailable(StanzaError(type: "cancel", condition: .serviceUnavailable))), .refused)
        XCTAssertEqual(code(.connection(.timedOut("waiting"))), .network)
        XCTAssertEqual(code(.connection(.stanzaError(StanzaError(type: "auth", condition: .forbidden)))), .refused)
        XCTAssertTrue(ErrorMapping.failure(for: AvatarServiceError.hashMismatch(expected: "a1", actual: "b2") as any Error)
            .message.contains("a1"))
    }
}
