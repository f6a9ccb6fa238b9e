import Foundation
import XCTest
import XMPPStanzas
@testable import XMPPConnection

/// The log-in memory policy that lives in XMPPConnection (`SessionLogIn`, `FASTResume`): what
/// an account remembers after a log-in, and how a FAST token is used and rotated through a store.
final class SessionMemoryTests: HostilePeerTestCase {
    /// What a store was told.
    final class Recorder: LoginMemory, FASTTokenStore, @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        var token: FASTTokenState?
        var inUse = false

        init(token: FASTTokenState? = nil) { self.token = token }

        var log: [String] { lock.withLock { events } }
        fileprivate func note(_ event: String) { lock.withLock { events.append(event) } }

        func rememberSCRAM() { note("scram") }
        func rememberOffer(_ offer: RememberedOffer) { note("offer \(offer.mechanism) sasl2=\(offer.sasl2)") }

        func withTokenInUse<T>(_ body: () throws -> T) throws -> T {
            note("lock")
            inUse = true
            defer { inUse = false; note("unlock") }
            return try body()
        }
        /// Held by a turn of `FASTLoginPolicy`; another stream or program holds it while `busy`.
        final class Hold: FASTTokenHold {
            let store: Recorder
            init(_ store: Recorder) { self.store = store }
            func release() {
                guard store.inUse else { return }
                store.inUse = false
                store.note("release")
            }
        }
        var busy = false
        func tryTokenInUse() -> FASTTokenHold? {
            guard !busy, !inUse else {
                note("busy")
                return nil
            }
            note("take")
            inUse = true
            return Hold(self)
        }
        func current() -> FASTTokenState? {
            note(inUse ? "read in use" : "read outside")
            return token
        }
        func keep(_ rotated: FASTTokenState) {
            note(inUse ? "keep in use" : "keep outside")
            token = rotated
        }
        func discard() { note("discard") }
    }

    static func outcome(_ mechanism: String, sasl2: Bool) -> LoginOutcome {
        LoginOutcome(mechanism: mechanism, keys: nil, token: nil, boundJID: nil, usedSASL2: sasl2, downgradeProtected: false)
    }

    /// A password account that authenticates with SCRAM for the first time is marked; PLAIN or
    /// an account already marked is not written again.
    func testSCRAMIsRememberedOnceAndNeverAfterPLAIN() throws {
        let fresh = SessionLogIn(username: "alice", credential: .password("pw"), usedSCRAMBefore: false)
        let memory = Recorder()
        try fresh.remember(Self.outcome("SCRAM-SHA-256", sasl2: false), in: memory)
        XCTAssertEqual(memory.log, ["scram"])

        let plain = Recorder()
        try fresh.remember(Self.outcome("PLAIN", sasl2: false), in: plain)
        XCTAssertEqual(plain.log, [])

        let marked = Recorder()
        try SessionLogIn(username: "alice", credential: .password("pw"), usedSCRAMBefore: true)
            .remember(Self.outcome("SCRAM-SHA-1", sasl2: true), in: marked)
        XCTAssertEqual(marked.log, [])
    }

    /// Cached keys are SCRAM's: the request refuses PLAIN, pipelines `<authenticate/>` only for a
    /// remembered SASL2 offer, and an offer that changed is remembered (an unchanged one is not).
    func testCachedKeysRememberTheOfferTheyWentWith() throws {
        let keys = try SCRAMKeys.derive(hash: .sha1, password: Self.password, salt: Array("salt".utf8), iterations: 4096)
        let sasl2 = SessionLogIn(username: "alice", credential: .keys(keys), usedSCRAMBefore: false,
                                 rememberedOffer: RememberedOffer(mechanism: "SCRAM-SHA-1", sasl2: true))
        XCTAssertTrue(sasl2.request.usedSCRAMBefore)
        XCTAssertEqual(sasl2.request.expectedMechanism, "SCRAM-SHA-1")
        let legacy = SessionLogIn(username: "alice", credential: .keys(keys), usedSCRAMBefore: false,
                                  rememberedOffer: RememberedOffer(mechanism: "SCRAM-SHA-1", sasl2: false))
        XCTAssertNil(legacy.request.expectedMechanism)

        let same = Recorder()
        try sasl2.remember(Self.outcome("SCRAM-SHA-1", sasl2: true), in: same)
        XCTAssertEqual(same.log, [])
        let changed = Recorder()
        try sasl2.remember(Self.outcome("SCRAM-SHA-1", sasl2: false), in: changed)
        XCTAssertEqual(changed.log, ["offer SCRAM-SHA-1 sasl2=false"])
        let password = Recorder()
        try SessionLogIn(username: "alice", credential: .password("pw"), usedSCRAMBefore: true)
            .remember(Self.outcome("SCRAM-SHA-256", sasl2: true), in: password)
        XCTAssertEqual(password.log, [], "a password log-in has no offer to remember")
    }

    /// A token this client cannot use: empty, or of a mechanism it does not know.
    func testUnusableTokens() {
        XCTAssertTrue(FASTTokenState(mechanism: "HT-SHA-256-NONE", token: "t", expiry: "", userAgentID: "ua").isUsable)
        XCTAssertFalse(FASTTokenState(mechanism: "HT-MD5-NONE", token: "t", expiry: "", userAgentID: "ua").isUsable)
        XCTAssertFalse(FASTTokenState(mechanism: "HT-SHA-256-NONE", token: "", expiry: "", userAgentID: "ua").isUsable)
    }

    /// A rotation keeps the replaced token as the previous one; a token issued again unchanged does not.
    func testRotationKeepsTheReplacedToken() {
        let state = FASTTokenState(mechanism: "HT-SHA-256-NONE", token: "old", expiry: "2030", userAgentID: "ua", previousToken: "older")
        let mechanism = FASTMechanism(hash: .sha256, binding: nil)
        let rotated = FASTResume.rotated(state, to: (mechanism, FASTToken(secret: "new", expiry: "2031")))
        XCTAssertEqual(rotated, FASTTokenState(mechanism: mechanism.name, token: "new", expiry: "2031", userAgentID: "ua", previousToken: "old"))
        let same = FASTResume.rotated(state, to: (mechanism, FASTToken(secret: "old", expiry: "2031")))
        XCTAssertEqual(same.previousToken, "older")
    }

    /// The token is read, used and its rotation kept while the store holds it.
    func testFASTResumeUsesAndRotatesTheTokenWhileHoldingIt() throws {
        let peer = try pipelinedPeer(
            HostileSASL2Tests.sasl2Features(["SCRAM-SHA-1"]), answer: HostilePipelinedLogInTests.tokenSuccess)
        let store = Recorder(token: FASTTokenState(mechanism: HostilePipelinedLogInTests.mechanism.name, token: HostileSASL2Tests.token,
                                                   expiry: "2029-01-01T00:00:00Z", userAgentID: HostileSASL2Tests.userAgent))
        let port = peer.port, caFile = caFile
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: String?
        let thread = Thread {
            defer { done.signal() }
            do {
                let connection = try FASTResume.logIn(username: "alice", store: store, resource: nil) { pipelined in
                    try Connection.open(ConnectionOptions(domain: "localhost", serverHost: "127.0.0.1", serverPort: port,
                                                          timeout: .seconds(3), account: "alice@localhost", pipelined: pipelined),
                                        tls: TLSContext(settings: TLSSettings(caFile: caFile)))
                }
                connection.close()
            } catch {
                failure = "\(error)"
            }
        }
        thread.start()
        guard done.wait(timeout: .now() + .seconds(10)) == .success else { peer.stop(); return XCTFail("the client hung") }
        peer.stop()
        XCTAssertNil(failure)
        XCTAssertEqual(store.log, ["lock", "read in use", "keep in use", "unlock"])
        XCTAssertEqual(store.token?.token, "secret-token:rotated")
        XCTAssertEqual(store.token?.previousToken, HostileSASL2Tests.token)

    }

    /// The token as `FASTLoginPolicy` takes it for streams on one poll loop: one stream's turn
    /// at a time, read when the turn starts, so the next stream logs in with the token the
    /// last one's server rotated to; a failed log-in gives the turn back and keeps nothing.
    func testFASTPolicyGivesOneStreamAtATimeTheLatestToken() throws {
        let store = Recorder(token: FASTTokenState(mechanism: HostilePipelinedLogInTests.mechanism.name, token: "t0",
                                                   expiry: "2029-01-01T00:00:00Z", userAgentID: HostileSASL2Tests.userAgent))
        let policy = FASTLoginPolicy(username: "alice", store: store, resource: "r")
        guard case .token(_, let first)? = try policy.begin()?.credential else { return XCTFail("no token request") }
        XCTAssertEqual(first, "t0")
        XCTAssertNil(try policy.begin(), "a second stream must wait while the first uses the token")
        var outcome = Self.outcome(HostilePipelinedLogInTests.mechanism.name, sasl2: true)
        outcome.token = (HostilePipelinedLogInTests.mechanism, FASTToken(secret: "t1", expiry: "2030"))
        try policy.succeeded(outcome)
        let next = try policy.begin()
        guard case .token(_, let second)? = next?.credential else { return XCTFail("no turn after the first ended") }
        XCTAssertEqual(second, "t1")
        XCTAssertEqual(next?.expectedMechanism, HostilePipelinedLogInTests.mechanism.name)
        XCTAssertEqual(next?.resource, "r")
        policy.failed()
        XCTAssertEqual(store.token?.token, "t1")
        XCTAssertEqual(store.log, ["take", "read in use", "keep in use", "release", "take", "read in use", "release"])
    }

    /// A stream set up on a poll loop whose account's token another program holds waits without
    /// blocking: `advance` returns at once, nothing is watched, and once the token is free the
    /// stream logs in with it and keeps the rotated one.
    func testPolledSetupWaitsForTheTokenWithoutBlocking() throws {
        let peer = try pipelinedPeer(
            HostileSASL2Tests.sasl2Features(["SCRAM-SHA-1"]), answer: HostilePipelinedLogInTests.tokenSuccess)
        let store = Recorder(token: FASTTokenState(mechanism: HostilePipelinedLogInTests.mechanism.name, token: HostileSASL2Tests.token,
                                                   expiry: "2029-01-01T00:00:00Z", userAgentID: HostileSASL2Tests.userAgent))
        store.busy = true
        let options = ConnectionOptions(domain: "localhost", serverHost: "127.0.0.1", serverPort: peer.port, timeout: .seconds(3),
                                        account: "alice@localhost", pipelined: true)
        let setup = try PolledSetup(options, endpoints: options.resolveEndpoints(), tls: TLSContext(settings: TLSSettings(caFile: caFile)),
                                    policy: FASTLoginPolicy(username: "alice", store: store, resource: nil))
        let giveUp = ContinuousClock.now + .seconds(10)
        while !setup.awaitsTurn {
            XCTAssertNil(try setup.advance())
            guard ContinuousClock.now < giveUp else { return XCTFail("the stream never opened") }
            _ = StreamPoller.ready([StreamPoller.Watch(setup.fileDescriptor, write: setup.wantsWrite)], until: setup.deadline)
        }
        let started = ContinuousClock.now
        XCTAssertNil(try setup.advance())
        XCTAssertLessThan(started.duration(to: .now), .milliseconds(500), "waiting for the token must not block the loop")
        XCTAssertEqual(setup.fileDescriptor, -1, "nothing to watch while the token is another's")
        store.busy = false
        var link: PolledConnection?
        while link == nil {
            link = try setup.advance()
            guard ContinuousClock.now < giveUp else { return XCTFail("the log-in never ended") }
            if link == nil { _ = StreamPoller.ready([StreamPoller.Watch(setup.fileDescriptor)], until: setup.deadline) }
        }
        link?.close()
        XCTAssertEqual(link?.connection.boundJID?.description, "alice@localhost/4a9f")
        XCTAssertEqual(store.token?.token, "secret-token:rotated")
        XCTAssertEqual(store.log.filter { $0 != "busy" }, ["take", "read in use", "keep in use", "release"])
        XCTAssertTrue(store.log.contains("busy"))
    }
}
