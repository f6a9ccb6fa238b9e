import XCTest
import XMLTree
import XMPPStanzas

/// SASL2 (XEP-0388), Bind 2 (XEP-0386) and FAST (XEP-0484) payloads, read from the XEPs' examples
/// and written back.
final class SASL2PayloadTests: XCTestCase {
    func testFeaturesWithSASL2BindAndFAST() throws {
        // XEP-0388 Example 1 with XEP-0386's <bind/> and XEP-0484's <fast/> inline.
        let features = StreamFeatures(element: try parseXMLDocument("""
            <stream:features xmlns:stream='http://etherx.jabber.org/streams'>
              <authentication xmlns='urn:xmpp:sasl:2'>
                <mechanism>SCRAM-SHA-1</mechanism>
                <mechanism>SCRAM-SHA-1-PLUS</mechanism>
                <inline>
                  <bind xmlns='urn:xmpp:bind:0'><inline><feature var='urn:xmpp:carbons:2'/><feature var='urn:xmpp:csi:0'/></inline></bind>
                  <sm xmlns='urn:xmpp:sm:3'/>
                  <fast xmlns='urn:xmpp:fast:0'><mechanism>HT-SHA-256-ENDP</mechanism><mechanism>HT-SHA-256-NONE</mechanism></fast>
                </inline>
              </authentication>
            </stream:features>
            """))
        let offer = try XCTUnwrap(features.sasl2)
        XCTAssertEqual(offer.mechanisms, ["SCRAM-SHA-1", "SCRAM-SHA-1-PLUS"])
        XCTAssertTrue(offer.bind2)
        XCTAssertEqual(offer.bind2Features, ["urn:xmpp:carbons:2", "urn:xmpp:csi:0"])
        XCTAssertEqual(offer.fastMechanisms, ["HT-SHA-256-ENDP", "HT-SHA-256-NONE"])
        XCTAssertEqual(try SASL2Offer(element: offer.element), offer)
    }

    func testFeaturesWithoutSASL2OrFAST() throws {
        let plain = StreamFeatures(element: try parseXMLDocument(
            "<features xmlns='http://etherx.jabber.org/streams'><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></features>"))
        XCTAssertNil(plain.sasl2)
        let noFAST = try SASL2Offer(element: parseXMLDocument("<authentication xmlns='urn:xmpp:sasl:2'><mechanism>PLAIN</mechanism></authentication>"))
        XCTAssertNil(noFAST.fastMechanisms)
        XCTAssertFalse(noFAST.bind2)
    }

    func testAuthenticateRoundTrip() throws {
        // XEP-0388 Example 2, with Bind 2 (XEP-0386 Example 2) and a token request (XEP-0484 Example 2).
        let element = try parseXMLDocument("""
            <authenticate xmlns='urn:xmpp:sasl:2' mechanism='SCRAM-SHA-1-PLUS'>
              <initial-response>cD10bHMtZXhwb3J0ZXIsLG49dXNlcixyPTEyQzRDRDVDLUUzOEUtNEE5OC04RjZELTE1QzM4RjUxQ0NDNg==</initial-response>
              <user-agent id='d4565fa7-4d72-4749-b3d3-740edbf87770'><software>AwesomeXMPP</software><device>Kiva's Phone</device></user-agent>
              <bind xmlns='urn:xmpp:bind:0'><tag>AwesomeXMPP</tag></bind>
              <request-token xmlns='urn:xmpp:fast:0' mechanism='HT-SHA-256-NONE'/>
            </authenticate>
            """)
        let request = try SASL2Authenticate(element: element)
        XCTAssertEqual(request.mechanism, "SCRAM-SHA-1-PLUS")
        XCTAssertEqual(request.initialResponse, "cD10bHMtZXhwb3J0ZXIsLG49dXNlcixyPTEyQzRDRDVDLUUzOEUtNEE5OC04RjZELTE1QzM4RjUxQ0NDNg==")
        XCTAssertEqual(request.userAgentID, "d4565fa7-4d72-4749-b3d3-740edbf87770")
        XCTAssertEqual(request.software, "AwesomeXMPP")
        XCTAssertEqual(request.device, "Kiva's Phone")
        XCTAssertEqual(request.bindTag, "AwesomeXMPP")
        XCTAssertEqual(request.requestToken, "HT-SHA-256-NONE")
        XCTAssertNil(request.fast)
        XCTAssertEqual(try SASL2Authenticate(element: request.element), request)
    }

    func testFASTAuthenticationAndInvalidation() throws {
        // XEP-0484 Example 4: a token authentication; invalidate='true' ends the token (§3.4).
        let request = try SASL2Authenticate(element: parseXMLDocument("""
            <authenticate xmlns='urn:xmpp:sasl:2' mechanism='HT-SHA-256-NONE'>
              <initial-response>bnV0Y2FzZQAAAA==</initial-response>
              <user-agent id='d4565fa7-4d72-4749-b3d3-740edbf87770'/>
              <fast xmlns='urn:xmpp:fast:0' invalidate='true'/>
            </authenticate>
            """))
        XCTAssertEqual(request.fast, .init(invalidate: true))
        XCTAssertEqual(try SASL2Authenticate(element: request.element), request)
        XCTAssertEqual(SASL2Authenticate(mechanism: "PLAIN", initialResponse: "").element.child("initial-response")?.text, "=")
    }

    func testSuccessWithBoundResourceAndToken() throws {
        // XEP-0388 Example 5 with XEP-0386's <bound/> and XEP-0484 Example 3's <token/>.
        let reply = try SASL2Reply(element: parseXMLDocument("""
            <success xmlns='urn:xmpp:sasl:2'>
              <additional-data>dj1tc1RNNTBhUUM1NVR3YVNQL1J6Z0hjY0VHT0U9</additional-data>
              <authorization-identifier>juliet@montague.example/Balcony~a987dsh9a87sdh</authorization-identifier>
              <bound xmlns='urn:xmpp:bind:0'/>
              <token xmlns='urn:xmpp:fast:0' expiry='2020-03-12T14:36:15Z' token='WXZzciBwYmFmdmZnZiBqdmd1IGp2eXFhcmZm'/>
            </success>
            """))
        guard case .success(let success) = reply else { return XCTFail("\(reply)") }
        XCTAssertEqual(success.additionalData, "dj1tc1RNNTBhUUM1NVR3YVNQL1J6Z0hjY0VHT0U9")
        XCTAssertEqual(success.authorizationIdentifier.description, "juliet@montague.example/Balcony~a987dsh9a87sdh")
        XCTAssertEqual(success.bind, .bound)
        XCTAssertEqual(success.token, FASTToken(secret: "WXZzciBwYmFmdmZnZiBqdmd1IGp2eXFhcmZm", expiry: "2020-03-12T14:36:15Z"))
        XCTAssertEqual(try SASL2Success(element: success.element), success)
    }

    func testFailureChallengeAndContinue() throws {
        // XEP-0388 Examples 4 and 8.
        let failure = try SASL2Reply(element: parseXMLDocument("""
            <failure xmlns='urn:xmpp:sasl:2'><aborted xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>
            <optional-application-specific xmlns='urn:something:else'/><text>This is a terrible example.</text></failure>
            """))
        XCTAssertEqual(failure, .failure(condition: "aborted", text: "This is a terrible example."))
        XCTAssertEqual(try SASL2Reply(element: parseXMLDocument("<challenge xmlns='urn:xmpp:sasl:2'>cj1mYWI=</challenge>")), .challenge("cj1mYWI="))
        let more = try SASL2Reply(element: parseXMLDocument("""
            <continue xmlns='urn:xmpp:sasl:2'><additional-data>SSdtIGJvcmVkIG5vdy4=</additional-data>
            <tasks><task>HOTP-EXAMPLE</task><task>TOTP-EXAMPLE</task></tasks><text>This account requires 2FA</text></continue>
            """))
        XCTAssertEqual(more, .continue(tasks: ["HOTP-EXAMPLE", "TOTP-EXAMPLE"], text: "This account requires 2FA"))
    }

    func testMalformedRepliesHaveReasons() throws {
        XCTAssertThrowsError(try SASL2Reply(element: parseXMLDocument("<success xmlns='urn:xmpp:sasl:2'/>"))) {
            XCTAssertEqual($0 as? StanzaParseError, .missingChild(element: "success", child: "authorization-identifier"))
        }
        XCTAssertThrowsError(try SASL2Reply(element: parseXMLDocument("<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>")))
        XCTAssertThrowsError(try FASTToken(element: parseXMLDocument("<token xmlns='urn:xmpp:fast:0' expiry='2020-03-12T14:36:15Z'/>"))) {
            XCTAssertEqual($0 as? StanzaParseError, .missingAttribute(element: "token", attribute: "token"))
        }
        XCTAssertThrowsError(try SASL2Authenticate(element: parseXMLDocument("<authenticate xmlns='urn:xmpp:sasl:2'/>")))
    }

    func testBindFailureCarriesTheError() throws {
        let reply = try SASL2Reply(element: parseXMLDocument("""
            <success xmlns='urn:xmpp:sasl:2'><authorization-identifier>juliet@montague.example</authorization-identifier>
            <failed xmlns='urn:xmpp:bind:0'><error type='cancel'><not-allowed xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></failed></success>
            """))
        guard case .success(let success) = reply else { return XCTFail("\(reply)") }
        XCTAssertEqual(success.bind, .failed(StanzaError(type: "cancel", condition: .notAllowed)))
    }
}
