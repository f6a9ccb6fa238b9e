import XCTest
import XMLTree
import XMPPStanzas

/// RFC 6121 §2 roster queries and XEP-0237 versions, from the RFC's own examples.
final class RosterQueryTests: XCTestCase {
    /// RFC 6121 §2.1.4 (roster result), with §2.6 `ver`.
    let rosterResult = """
        <iq xmlns='jabber:client' id='hu2bac18' to='juliet@example.com/balcony' type='result'>
          <query xmlns='jabber:iq:roster' ver='ver11'>
            <item jid='romeo@example.net' name='Romeo' subscription='both'>
              <group>Friends</group>
            </item>
            <item jid='mercutio@example.com' name='Mercutio' subscription='from'/>
            <item jid='benvolio@example.net' name='Benvolio' subscription='both'/>
          </query>
        </iq>
        """

    func testRosterResultParsesEveryItem() throws {
        let iq = try Iq(element: parseXMLDocument(rosterResult))
        let query = try RosterQuery(element: XCTUnwrap(iq.payload))
        XCTAssertEqual(query.ver, "ver11")
        XCTAssertEqual(query.items.map(\.jid.description), ["romeo@example.net", "mercutio@example.com", "benvolio@example.net"])
        XCTAssertEqual(query.items[0], RosterItem(jid: try JID("romeo@example.net"), name: "Romeo", subscription: .both, groups: ["Friends"]))
        XCTAssertEqual(query.items[1].subscription, .from)
        XCTAssertEqual(query.items[1].groups, [])
        XCTAssertEqual(try RosterQuery(element: query.element), query)
    }

    func testRoundTripIsExactForServerForm() throws {
        let query = try RosterQuery(element: XCTUnwrap(try Iq(element: parseXMLDocument(rosterResult)).payload))
        XCTAssertEqual(query.element.serialized(inheritedNamespace: "jabber:client"),
                       "<query xmlns='jabber:iq:roster' ver='ver11'>"
                       + "<item jid='romeo@example.net' name='Romeo' subscription='both'><group>Friends</group></item>"
                       + "<item jid='mercutio@example.com' name='Mercutio' subscription='from'/>"
                       + "<item jid='benvolio@example.net' name='Benvolio' subscription='both'/></query>")
    }

    /// RFC 6121 §2.6.3: an empty result means "your cached version is current".
    func testEmptyResultHasNoPayload() throws {
        let iq = try Iq(element: parseXMLDocument("<iq xmlns='jabber:client' id='r1e' type='result' to='juliet@example.com/balcony'/>"))
        XCTAssertNil(iq.payload)
    }

    /// RFC 6121 §2.6.2: the get carries the cached version.
    func testGetCarriesVersion() {
        XCTAssertEqual(RosterQuery.get(ver: "ver14").serialized(inheritedNamespace: "jabber:client"),
                       "<query xmlns='jabber:iq:roster' ver='ver14'/>")
        XCTAssertEqual(RosterQuery.get(ver: nil).serialized(inheritedNamespace: "jabber:client"),
                       "<query xmlns='jabber:iq:roster'/>")
    }

    /// RFC 6121 §2.3.2 (add) and §2.5.2 (remove): what a client sends.
    func testSetAndRemovePayloads() throws {
        let nurse = try JID("nurse@example.com")
        let add = RosterQuery.set(RosterItem(jid: nurse, name: "Nurse", subscription: .both, ask: true, groups: ["Servants"]))
        XCTAssertEqual(add.serialized(inheritedNamespace: "jabber:client"),
                       "<query xmlns='jabber:iq:roster'><item jid='nurse@example.com' name='Nurse'><group>Servants</group></item></query>")
        XCTAssertEqual(RosterQuery.remove(nurse).serialized(inheritedNamespace: "jabber:client"),
                       "<query xmlns='jabber:iq:roster'><item jid='nurse@example.com' subscription='remove'/></query>")
    }

    /// RFC 6121 §2.6.3: a versioned push removing an item.
    func testVersionedPushRemove() throws {
        let iq = try Iq(element: parseXMLDocument("""
            <iq xmlns='jabber:client' id='a78b4q6ha463' to='juliet@example.com/chamber' type='set'>
              <query xmlns='jabber:iq:roster' ver='ver34'><item jid='romeo@example.net' subscription='remove'/></query>
            </iq>
            """))
        XCTAssertEqual(iq.type, .set)
        let push = try RosterQuery(element: XCTUnwrap(iq.payload))
        XCTAssertEqual(push.ver, "ver34")
        XCTAssertEqual(push.items, [RosterItem(jid: try JID("romeo@example.net"), subscription: .remove)])
    }

    func testQueryInOtherNamespaceIsRefused() throws {
        XCTAssertThrowsError(try RosterQuery(element: parseXMLDocument("<query xmlns='jabber:iq:register'/>"))) {
            XCTAssertEqual($0 as? StanzaParseError, .unexpectedElement(expected: "query", got: "query"))
        }
    }

    /// One item another client wrote under older rules (RFC 7622 refuses ♚) leaves the rest of
    /// the roster readable and is named, instead of making the whole roster malformed.
    func testAnItemWithAnUnreadableJIDIsLeftOutAndNamed() throws {
        let query = try RosterQuery(element: parseXMLDocument("""
            <query xmlns='jabber:iq:roster' ver='7'><item jid='\u{265A}@example.com'/><item jid='romeo@example.net'/></query>
            """))
        XCTAssertEqual(query.items.map(\.jid.description), ["romeo@example.net"])
        XCTAssertEqual(query.unreadable.count, 1)
        XCTAssertTrue(query.unreadable[0].hasPrefix("roster item '\u{265A}@example.com' left out: "), query.unreadable[0])
        XCTAssertThrowsError(try RosterQuery(element: parseXMLDocument("<query xmlns='jabber:iq:roster'><item/></query>")),
                             "an item without a jid is still malformed")
    }
}
