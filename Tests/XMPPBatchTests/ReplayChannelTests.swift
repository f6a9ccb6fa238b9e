import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas
@testable import XMPPBatch

/// The services run as a poll-loop conversation (`ReplayChannel`): each run goes one round trip
/// further, sends only what no run sent before, and stops where a reply is missing.
final class ReplayChannelTests: XCTestCase {
    /// The stream's facts, for the channel; it is never sent to.
    private final class Facts: StanzaChannel {
        let domain = "example.org"
        let timeout: Duration = .seconds(1)
        let features = StreamFeatures(element: XMLElement("features", namespace: Namespace.streams))
        let boundJID: JID? = try? JID("alice@example.org/r")
        func makeID() -> String { "unused" }
        func send(_ elements: [XMLElement]) throws(ConnectionError) { XCTFail("sent through the stream's facts") }
        func awaitReply(id: String, timeout: Duration?) throws(ConnectionError) -> Iq { throw .timedOut("unused") }
        func nextStanza(deadline: ContinuousClock.Instant) throws(ConnectionError) -> XMLElement { throw .timedOut("unused") }
    }

    private func result(to request: XMLElement, _ payload: XMLElement? = nil) -> XMLElement {
        XMLElement("iq", namespace: Namespace.client,
                   attributes: ["type": "result", "id": request[attribute: "id"] ?? ""], children: payload.map { [.element($0)] } ?? [])
    }

    /// A vCard fetch, then its publish: two round trips, each run sending only the new request.
    private func fetchAndPublish(_ channel: ReplayChannel) throws -> Bool {
        var card = try VCardService.fetch(on: channel, jid: nil)
        card.nickname = "Al"
        try VCardService.publish(card, on: channel)
        return true
    }

    func testEachRunGoesOneRoundTripFurtherAndSendsOnlyWhatIsNew() throws {
        let channel = ReplayChannel(Facts())
        channel.beginRun()
        XCTAssertThrowsError(try fetchAndPublish(channel))
        XCTAssertTrue(channel.waitsForReply)
        XCTAssertEqual(channel.outbox.map { $0[attribute: "type"] }, ["get"])
        let get = try XCTUnwrap(channel.outbox.first)

        XCTAssertFalse(channel.take(result(to: XMLElement("iq", attributes: ["id": "someone-else"]))), "not one of its requests")
        XCTAssertTrue(channel.take(result(to: get, XMLElement("vCard", namespace: "vcard-temp"))))
        channel.beginRun()
        XCTAssertThrowsError(try fetchAndPublish(channel))
        XCTAssertTrue(channel.waitsForReply)
        XCTAssertEqual(channel.outbox.map { $0[attribute: "type"] }, ["set"], "the get is not sent again")
        let set = try XCTUnwrap(channel.outbox.first)
        let text = set.serialized(inheritedNamespace: Namespace.client)
        XCTAssertTrue(text.contains("<NICKNAME>Al</NICKNAME>"), text)

        XCTAssertTrue(channel.take(result(to: set)))
        channel.beginRun()
        XCTAssertTrue(try fetchAndPublish(channel))
        XCTAssertFalse(channel.waitsForReply)
        XCTAssertEqual(channel.outbox, [], "nothing more to send")
    }

    /// Two requests sent ahead (a pipelining service): the reply to the second is kept, and only
    /// the one the run stopped at runs it again.
    func testOnlyTheAwaitedReplyRunsTheWorkAgain() throws {
        let channel = ReplayChannel(Facts())
        func both() throws -> Int {
            let a = Iq(type: .get, id: channel.makeID(), payload: XMLElement("query", namespace: "jabber:iq:version"))
            let b = Iq(type: .get, id: channel.makeID(), payload: XMLElement("query", namespace: "jabber:iq:last"))
            try channel.send([a.element, b.element])
            _ = try channel.awaitReply(id: a.id)
            _ = try channel.awaitReply(id: b.id)
            return 2
        }
        channel.beginRun()
        XCTAssertThrowsError(try both())
        XCTAssertEqual(channel.outbox.count, 2)
        let (a, b) = (channel.outbox[0], channel.outbox[1])
        XCTAssertFalse(channel.take(result(to: b)), "the run waits for the first reply")
        XCTAssertTrue(channel.take(result(to: a)))
        channel.beginRun()
        XCTAssertEqual(try both(), 2, "the second reply was kept")
        XCTAssertEqual(channel.outbox, [])
    }

    func testAnErrorReplyIsTheServicesError() throws {
        let channel = ReplayChannel(Facts())
        channel.beginRun()
        XCTAssertThrowsError(try RegistrationService.changePassword(on: channel, username: "alice", newPassword: "n"))
        let request = try XCTUnwrap(channel.outbox.first)
        let refusal = XMLElement("iq", namespace: Namespace.client, attributes: ["type": "error", "id": request[attribute: "id"] ?? ""],
                                 children: [.element(StanzaError(type: "cancel", condition: .notAllowed).element)])
        XCTAssertTrue(channel.take(refusal))
        channel.beginRun()
        XCTAssertThrowsError(try RegistrationService.changePassword(on: channel, username: "alice", newPassword: "n")) { error in
            guard case RegistrationError.connection(.stanzaError(let e)) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.condition, .notAllowed)
        }
        XCTAssertFalse(channel.waitsForReply)
    }

    /// A server that closes the stream instead of answering a cancellation: the work hears the
    /// close as its answer, which `RegistrationService.cancel` counts as done.
    func testTheStreamsEndIsTheMissingReply() throws {
        let channel = ReplayChannel(Facts())
        channel.beginRun()
        XCTAssertThrowsError(try RegistrationService.cancel(on: channel))
        XCTAssertEqual(channel.outbox.count, 1)
        channel.streamEnded(.streamClosed)
        channel.beginRun()
        XCTAssertNoThrow(try RegistrationService.cancel(on: channel))
        XCTAssertEqual(channel.outbox, [], "the cancellation is not sent again")
    }
}
