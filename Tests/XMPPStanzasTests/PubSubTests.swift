import XCTest
import XMLTree
import XMPPStanzas

/// The XEP-0060 subset avatars use: publish with publish-options, retract, configure, and what
/// to do when publish-options are refused.
final class PubSubTests: XCTestCase {
    /// XEP-0060 §7.1.5 example: publishing with options.
    func testPublishWithOptionsRoundTrips() throws {
        let publish = try PubSubPublish(element: iqPayload("""
            <iq type='set' from='hamlet@denmark.lit/blogbot' to='pubsub.shakespeare.lit' id='pub1' xmlns='jabber:client'>
              <pubsub xmlns='http://jabber.org/protocol/pubsub'>
                <publish node='princely_musings'>
                  <item id='ae890ac52d0df67ed7cfdf51b644e901'>
                    <entry xmlns='http://www.w3.org/2005/Atom'>
                      <title>Soliloquy</title>
                    </entry>
                  </item>
                </publish>
                <publish-options>
                  <x xmlns='jabber:x:data' type='submit'>
                    <field var='FORM_TYPE' type='hidden'>
                      <value>http://jabber.org/protocol/pubsub#publish-options</value>
                    </field>
                    <field var='pubsub#access_model'>
                      <value>presence</value>
                    </field>
                  </x>
                </publish-options>
              </pubsub>
            </iq>
            """))
        XCTAssertEqual(publish.node, "princely_musings")
        XCTAssertEqual(publish.item.id, "ae890ac52d0df67ed7cfdf51b644e901")
        XCTAssertEqual(publish.item.payload?.name, "entry")
        XCTAssertEqual(publish.options, ["pubsub#access_model": "presence"])
        XCTAssertEqual(try PubSubPublish(element: publish.element), publish)
    }

    func testAvatarPublishSerializesAsServersExpect() throws {
        let publish = PubSubPublish(
            node: Namespace.avatarMetadata,
            item: PubSubItem(id: "abc", payload: AvatarMetadata(infos: [.init(bytes: 3, id: "abc", type: "image/png")]).element),
            options: ["pubsub#access_model": "open"])
        XCTAssertEqual(publish.element.serialized(), """
            <pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='urn:xmpp:avatar:metadata'><item id='abc'>\
            <metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='3' id='abc' type='image/png'/></metadata></item></publish>\
            <publish-options><x xmlns='jabber:x:data' type='submit'><field type='hidden' var='FORM_TYPE'>\
            <value>http://jabber.org/protocol/pubsub#publish-options</value></field><field var='pubsub#access_model'>\
            <value>open</value></field></x></publish-options></pubsub>
            """)
    }

    func testPublishOptionsOfAnotherFormTypeAreRefused() {
        XCTAssertThrowsError(try PubSubPublish(element: parseXMLDocument("""
            <pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='n'><item/></publish><publish-options>
            <x xmlns='jabber:x:data' type='submit'><field var='FORM_TYPE'><value>urn:other</value></field></x>
            </publish-options></pubsub>
            """)))
        assertRefused(PubSubPublish.init(element:),
                      "<pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='n'><item/><item/></publish></pubsub>")
        XCTAssertThrowsError(try PubSubPublish(element: parseXMLDocument(
            "<pubsub xmlns='http://jabber.org/protocol/pubsub'><publish><item/></publish></pubsub>"))) {
            XCTAssertEqual($0 as? StanzaParseError, .missingAttribute(element: "publish", attribute: "node"))
        }
    }

    /// XEP-0060 §7.2.1 example: deleting an item, here with notification.
    func testRetractRoundTrips() throws {
        let retract = try PubSubRetract(element: iqPayload("""
            <iq type='set' from='hamlet@denmark.lit/elsinore' to='pubsub.shakespeare.lit' id='retract1' xmlns='jabber:client'>
              <pubsub xmlns='http://jabber.org/protocol/pubsub'>
                <retract node='princely_musings' notify='true'>
                  <item id='ae890ac52d0df67ed7cfdf51b644e901'/>
                </retract>
              </pubsub>
            </iq>
            """))
        XCTAssertEqual(retract, PubSubRetract(node: "princely_musings", ids: ["ae890ac52d0df67ed7cfdf51b644e901"], notify: true))
        XCTAssertEqual(try PubSubRetract(element: retract.element), retract)
        assertRefused(PubSubRetract.init(element:), "<pubsub xmlns='http://jabber.org/protocol/pubsub'><retract node='n'/></pubsub>")
    }

    /// XEP-0060 §8.2.4 example: submitting a node configuration form.
    func testConfigureRoundTrips() throws {
        let configure = try PubSubConfigure(element: iqPayload("""
            <iq type='set' from='hamlet@denmark.lit/elsinore' to='pubsub.shakespeare.lit' id='config2' xmlns='jabber:client'>
              <pubsub xmlns='http://jabber.org/protocol/pubsub#owner'>
                <configure node='princely_musings'>
                  <x xmlns='jabber:x:data' type='submit'>
                    <field var='FORM_TYPE' type='hidden'>
                      <value>http://jabber.org/protocol/pubsub#node_config</value>
                    </field>
                    <field var='pubsub#title'><value>Princely Musings (Atom)</value></field>
                    <field var='pubsub#access_model'><value>open</value></field>
                  </x>
                </configure>
              </pubsub>
            </iq>
            """))
        XCTAssertEqual(configure.node, "princely_musings")
        XCTAssertEqual(configure.fields, ["pubsub#title": "Princely Musings (Atom)", "pubsub#access_model": "open"])
        XCTAssertEqual(try PubSubConfigure(element: configure.element), configure)
    }

    func testItemsWithMaxItemsAndLimits() throws {
        let request = PubSubItems(node: Namespace.avatarMetadata, maxItems: 1)
        XCTAssertEqual(request.element.serialized(),
                       "<pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='urn:xmpp:avatar:metadata' max_items='1'/></pubsub>")
        XCTAssertEqual(try PubSubItems(element: request.element), request)
        let many = String(repeating: "<item/>", count: PubSubItems.maxItems + 1)
        assertRefused(PubSubItems.init(element:),
                      "<pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='n' max_items='0'/></pubsub>",
                      "<pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='n'>\(many)</items></pubsub>")
        assertRefused({ try PubSubItem(element: $0) }, "<item xmlns='http://jabber.org/protocol/pubsub'><a/><b/></item>")
    }

    /// XEP-0060 §7.1.5 example: precondition-not-met is a <conflict/>; reconfigure and publish again.
    func testRecoveryAfterPublishOptionsErrors() throws {
        let iq = try Iq(element: parseXMLDocument("""
            <iq type='error' from='pubsub.shakespeare.lit' to='hamlet@denmark.lit/blogbot' id='pub1' xmlns='jabber:client'>
              <error type='cancel'>
                <conflict xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>
                <precondition-not-met xmlns='http://jabber.org/protocol/pubsub#errors'/>
              </error>
            </iq>
            """))
        XCTAssertEqual(PublishOptionsRecovery(after: try XCTUnwrap(iq.error)), .reconfigureNode)
        XCTAssertEqual(PublishOptionsRecovery(after: StanzaError(type: "cancel", condition: .featureNotImplemented)),
                       .publishWithoutOptions)
        XCTAssertEqual(PublishOptionsRecovery(after: StanzaError(type: "modify", condition: .badRequest)), .publishWithoutOptions)
        XCTAssertEqual(PublishOptionsRecovery(after: StanzaError(type: "auth", condition: .forbidden)), .fail)
        XCTAssertEqual(PublishOptionsRecovery(after: StanzaError(type: "cancel", condition: .serviceUnavailable)), .fail)
    }
}
