import Foundation
import XMLTree
import XMPPConnection
import XMPPStanzas

/// A `StanzaChannel` that answers each IQ request it is sent with the next scripted reply, so
/// services can be fed the XEPs' own examples without a server. `{id}` in a reply stands for
/// the request's id. What was sent stays in `sent` for the test to check.
final class FakeChannel: StanzaChannel {
    /// Builds the reply stanzas (XML text) to one request.
    typealias Answer = (_ request: XMLElement) -> [String]

    let domain: String
    let timeout: Duration = .seconds(1)
    var features: StreamFeatures
    var boundJID: JID?
    private(set) var sent: [XMLElement] = []
    /// Stanzas the server sends of its own accord, before any reply.
    var unsolicited: [String] = []
    private var answers: [Answer]
    private var incoming: [XMLElement] = []
    private var nextID = 0

    init(domain: String = "example.org", features: String = "<stream:features xmlns:stream='http://etherx.jabber.org/streams'/>",
         answers: [Answer]) throws {
        self.domain = domain
        self.features = StreamFeatures(element: try parseXMLDocument(features))
        self.answers = answers
    }

    /// Answers that reply `xml` (with `{id}` replaced) to the requests in turn.
    convenience init(domain: String = "example.org", replies: [String]) throws {
        try self.init(domain: domain, answers: replies.map { xml in { _ in [xml] } })
    }

    /// The IQ requests sent so far (get and set), in order.
    var requests: [XMLElement] {
        sent.filter { $0.name == "iq" && ["get", "set"].contains($0[attribute: "type"] ?? "") }
    }

    func makeID() -> String {
        nextID += 1
        return "fake-\(nextID)"
    }

    func send(_ elements: [XMLElement]) throws(ConnectionError) {
        for element in elements {
            sent.append(element)
            guard element.name == "iq", ["get", "set"].contains(element[attribute: "type"] ?? "") else { continue }
            guard !answers.isEmpty else { continue }
            let id = element[attribute: "id"] ?? ""
            for xml in answers.removeFirst()(element) {
                do {
                    incoming.append(try parseXMLDocument(xml.replacingOccurrences(of: "{id}", with: id)))
                } catch {
                    throw .xml(error)
                }
            }
        }
    }

    func awaitReply(id: String, timeout: Duration?) throws(ConnectionError) -> Iq {
        try drainUnsolicited()
        guard let index = incoming.firstIndex(where: {
            $0.name == "iq" && $0[attribute: "id"] == id && ["result", "error"].contains($0[attribute: "type"] ?? "")
        }) else { throw .timedOut("no scripted reply to \(id)") }
        let element = incoming.remove(at: index)
        let iq: Iq
        do { iq = try Iq(element: element) } catch { throw .badStanza(error) }
        if iq.type == .error { throw .stanzaError(iq.error ?? StanzaError(type: "cancel", condition: .undefinedCondition)) }
        return iq
    }

    func nextStanza(deadline: ContinuousClock.Instant) throws(ConnectionError) -> XMLElement {
        try drainUnsolicited()
        guard !incoming.isEmpty else { throw .timedOut("nothing scripted") }
        return incoming.removeFirst()
    }

    private func drainUnsolicited() throws(ConnectionError) {
        var arrived: [XMLElement] = []
        for xml in unsolicited {
            do { arrived.append(try parseXMLDocument(xml)) } catch { throw .xml(error) }
        }
        incoming = arrived + incoming
        unsolicited = []
    }
}
