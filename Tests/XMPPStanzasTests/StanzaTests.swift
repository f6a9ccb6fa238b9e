import XCTest
import XMLTree
import XMPPStanzas

/// IQ, stanza errors, stream errors and features.
final class StanzaTests: XCTestCase {
    func testIqRoundTrip() throws {
        let element = try parseXMLDocument("<iq xmlns='jabber:client' type='result' id='b1' from='a@b.c/r' to='d@e.f'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>a@b.c/r</jid></bind></iq>")
        let iq = try Iq(element: element)
        XCTAssertEqual(iq.type, .result)
        XCTAssertEqual(iq.id, "b1")
        XCTAssertEqual(iq.from?.description, "a@b.c/r")
        XCTAssertEqual(try Bind.boundJID(from: iq.payload).description, "a@b.c/r")
        XCTAssertEqual(try Iq(element: iq.element), iq)
    }

    func testIqParseErrors() throws {
        XCTAssertThrowsError(try Iq(element: parseXMLDocument("<iq type='get'/>"))) {
            XCTAssertEqual($0 as? StanzaParseError, .missingAttribute(element: "iq", attribute: "id"))
        }
        XCTAssertThrowsError(try Iq(element: parseXMLDocument("<iq type='fetch' id='1'/>"))) {
            XCTAssertEqual($0 as? StanzaParseError, .invalidAttribute(element: "iq", attribute: "type", value: "fetch"))
        }
        XCTAssertThrowsError(try Iq(element: parseXMLDocument("<iq type='get' id='1' from='a b@c'/>")))
    }

    func testStanzaErrorWithText() throws {
        let iq = try Iq(element: parseXMLDocument("""
            <iq type='error' id='r1' xmlns='jabber:client'><query xmlns='jabber:iq:register'/><error type='cancel'>
            <conflict xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>
            <text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>The requested username already exists.</text></error></iq>
            """))
        XCTAssertEqual(iq.error, StanzaError(type: "cancel", condition: .conflict, text: "The requested username already exists."))
        XCTAssertEqual(iq.error?.description, "conflict: The requested username already exists.")
    }

    func testStanzaErrorWithoutConditionIsUndefined() throws {
        let error = StanzaError(stanza: try parseXMLDocument("<iq type='error' id='x'><error type='wait'/></iq>"))
        XCTAssertEqual(error.condition, .undefinedCondition)
        XCTAssertEqual(error.type, "wait")
    }

    /// RFC 6120 §8.3.3's 22 conditions read and write under their element names; a name it does
    /// not define (or one in another namespace) reads as undefined-condition.
    func testEveryDefinedConditionRoundTripsAndOthersAreUndefined() throws {
        XCTAssertEqual(StanzaError.Condition.allCases.count, 22)
        for condition in StanzaError.Condition.allCases {
            let written = StanzaError(type: "cancel", condition: condition).element
            let stanza = XMLElement("iq", namespace: Namespace.client, children: [.element(written)])
            XCTAssertEqual(StanzaError(stanza: stanza).condition, condition, condition.rawValue)
        }
        let odd = StanzaError(stanza: try parseXMLDocument("""
            <iq type='error' id='x'><error type='cancel'><payment-required xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>\
            <precondition-not-met xmlns='http://jabber.org/protocol/pubsub#errors'/></error></iq>
            """))
        XCTAssertEqual(odd.condition, .undefinedCondition)
        XCTAssertEqual(StanzaError.Condition.itemNotFound.description, "item-not-found")
    }

    func testStreamErrorAndFeatures() throws {
        let err = try parseXMLDocument("<stream:error xmlns:stream='http://etherx.jabber.org/streams'><host-unknown xmlns='urn:ietf:params:xml:ns:xmpp-streams'/><text xmlns='urn:ietf:params:xml:ns:xmpp-streams'>no such host</text></stream:error>")
        XCTAssertTrue(StreamError.matches(err))
        XCTAssertEqual(StreamError(element: err).description, "host-unknown: no such host")

        let features = StreamFeatures(element: try parseXMLDocument("""
            <stream:features xmlns:stream='http://etherx.jabber.org/streams'>
            <starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls>
            <mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>SCRAM-SHA-1</mechanism><mechanism> PLAIN </mechanism></mechanisms>
            <register xmlns='http://jabber.org/features/iq-register'/>
            <sasl-channel-binding xmlns='urn:xmpp:sasl-cb:0'><channel-binding type='tls-exporter'/></sasl-channel-binding>
            </stream:features>
            """))
        XCTAssertTrue(features.startTLS && features.startTLSRequired && features.registration)
        XCTAssertEqual(features.mechanisms, ["SCRAM-SHA-1", "PLAIN"])
        XCTAssertEqual(features.channelBindingTypes, ["tls-exporter"])
        XCTAssertFalse(features.bind)
    }
}
