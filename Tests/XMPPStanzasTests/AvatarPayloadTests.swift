import XCTest
import XMLTree
import XMPPStanzas

/// XEP-0084 data and metadata payloads, with XML from the XEP's examples.
final class AvatarPayloadTests: XCTestCase {
    /// The data item of XEP-0084's examples, as published (§4.1) and as the PEP service returns it (§4.4).
    private static let dataItem = """
        <item id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f'>
          <data xmlns='urn:xmpp:avatar:data'>
            qANQR1DBwU4DX7jmYZnncm...
          </data>
        </item>
        """

    /// XEP-0084 §4.1 example: publishing avatar data to the data node.
    func testPublishedDataRoundTrips() throws {
        let publish = try PubSubPublish(element: iqPayload("""
            <iq type='set' from='juliet@capulet.lit/chamber' id='publish1' xmlns='jabber:client'>
              <pubsub xmlns='http://jabber.org/protocol/pubsub'>
                <publish node='urn:xmpp:avatar:data'>\(Self.dataItem)</publish>
              </pubsub>
            </iq>
            """))
        XCTAssertEqual(publish.node, "urn:xmpp:avatar:data")
        XCTAssertEqual(publish.item.id, "111f4b3c50d7b0df729d299bc6f8e9ef9066971f")
        XCTAssertNil(publish.options)
        let data = try AvatarData(element: XCTUnwrap(publish.item.payload))
        XCTAssertEqual(data.compactBase64, "qANQR1DBwU4DX7jmYZnncm...")
        XCTAssertEqual(try AvatarData(element: data.element), data)
        XCTAssertEqual(try PubSubPublish(element: publish.element), publish)
    }

    /// XEP-0084 §4.2 first example: metadata for a PNG in the data node.
    func testMetadataOfAPNGInTheDataNode() throws {
        let metadata = try AvatarMetadata(element: parseXMLDocument("""
            <metadata xmlns='urn:xmpp:avatar:metadata'>
              <info bytes='12345'
                    id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f'
                    height='64'
                    type='image/png'
                    width='64'/>
            </metadata>
            """))
        let info = AvatarMetadata.Info(bytes: 12345, id: "111f4b3c50d7b0df729d299bc6f8e9ef9066971f", type: "image/png",
                                       width: 64, height: 64)
        XCTAssertEqual(metadata, AvatarMetadata(infos: [info]))
        XCTAssertFalse(metadata.isDisabled)
        XCTAssertEqual(metadata.dataNodeInfo, info)
        XCTAssertEqual(try AvatarMetadata(element: metadata.element), metadata)
        XCTAssertEqual(metadata.element.serialized(),
                       "<metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='12345' height='64' "
                           + "id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f' type='image/png' width='64'/></metadata>")
    }

    /// XEP-0084 §4.2 second example: a GIF hosted over HTTP is not in the data node.
    func testMetadataWithURLIsNotInDataNode() throws {
        let metadata = try AvatarMetadata(element: parseXMLDocument("""
            <metadata xmlns='urn:xmpp:avatar:metadata'>
              <info bytes='23456' height='64' id='357a8123a30844a3aa99861b6349264ba67a5694'
                    type='image/gif' url='http://avatars.example.org/happy.gif' width='64'/>
            </metadata>
            """))
        XCTAssertEqual(metadata.infos.first?.url, "http://avatars.example.org/happy.gif")
        XCTAssertNil(metadata.dataNodeInfo)
        XCTAssertEqual(try AvatarMetadata(element: metadata.element), metadata)
    }

    /// XEP-0084 §6.1 example: several formats; the PNG without a URL is the one in the data node.
    func testMetadataWithMultipleFormats() throws {
        let metadata = try AvatarMetadata(element: parseXMLDocument("""
            <metadata xmlns='urn:xmpp:avatar:metadata'>
              <info bytes='12345' height='64' id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f' type='image/png' width='64'/>
              <info bytes='12345' height='64' id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f' type='image/png'
                    url='http://avatars.example.org/happy.png' width='64'/>
              <info bytes='23456' height='64' id='357a8123a30844a3aa99861b6349264ba67a5694' type='image/gif'
                    url='http://avatars.example.org/happy.gif' width='64'/>
              <info bytes='78912' height='64' id='03a179fe37bd5d6bf9c2e1e592a14ae7814e31da' type='image/mng'
                    url='http://avatars.example.org/happy.mng' width='64'/>
            </metadata>
            """))
        XCTAssertEqual(metadata.infos.map(\.type), ["image/png", "image/png", "image/gif", "image/mng"])
        XCTAssertEqual(metadata.dataNodeInfo?.url, nil)
        XCTAssertEqual(metadata.dataNodeInfo?.bytes, 12345)
        XCTAssertEqual(try AvatarMetadata(element: metadata.element), metadata)
    }

    /// XEP-0084 §6.2 example: a pointer is kept as it is, after the infos.
    func testMetadataWithPointerKeepsIt() throws {
        let metadata = try AvatarMetadata(element: parseXMLDocument("""
            <metadata xmlns='urn:xmpp:avatar:metadata'>
              <info bytes='12345' height='64' id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f' type='image/png' width='64'/>
              <pointer>
                <x xmlns='http://example.com/virtualworlds'>
                  <game>Ancapistan</game>
                  <character>Kropotkin</character>
                </x>
              </pointer>
            </metadata>
            """))
        XCTAssertEqual(metadata.pointers.count, 1)
        XCTAssertEqual(metadata.pointers[0].child("x", namespace: "http://example.com/virtualworlds")?.child("game")?.text, "Ancapistan")
        XCTAssertEqual(try AvatarMetadata(element: metadata.element), metadata)
    }

    /// XEP-0084 §4.5 example: empty metadata disables the avatar; the deprecated <stop/> too.
    func testEmptyMetadataDisables() throws {
        let publish = try PubSubPublish(element: iqPayload("""
            <iq type='set' from='juliet@capulet.lit/chamber' id='publish3' xmlns='jabber:client'>
              <pubsub xmlns='http://jabber.org/protocol/pubsub'>
                <publish node='urn:xmpp:avatar:metadata'>
                  <item>
                    <metadata xmlns='urn:xmpp:avatar:metadata'/>
                  </item>
                </publish>
              </pubsub>
            </iq>
            """))
        XCTAssertNil(publish.item.id)
        let metadata = try AvatarMetadata(element: XCTUnwrap(publish.item.payload))
        XCTAssertTrue(metadata.isDisabled)
        XCTAssertEqual(metadata, AvatarMetadata())
        XCTAssertEqual(AvatarMetadata().element.serialized(), "<metadata xmlns='urn:xmpp:avatar:metadata'/>")
        let stop = try AvatarMetadata(element: parseXMLDocument("<metadata xmlns='urn:xmpp:avatar:metadata'><stop/></metadata>"))
        XCTAssertTrue(stop.isDisabled)
    }

    func testMetadataErrorsNameTheProblem() {
        let cases: [(String, StanzaParseError)] = [
            ("<metadata xmlns='urn:xmpp:avatar:metadata'><info id='a' type='image/png'/></metadata>",
             .missingAttribute(element: "info", attribute: "bytes")),
            ("<metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='-1' id='a' type='image/png'/></metadata>",
             .invalidAttribute(element: "info", attribute: "bytes", value: "-1")),
            ("<metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='5000000000' id='a' type='image/png'/></metadata>",
             .invalidAttribute(element: "info", attribute: "bytes", value: "5000000000")),
            ("<metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='1' type='image/png'/></metadata>",
             .missingAttribute(element: "info", attribute: "id")),
            ("<metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='1' id='a'/></metadata>",
             .missingAttribute(element: "info", attribute: "type")),
            ("<metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='1' id='a' type='image/png' width='70000'/></metadata>",
             .invalidAttribute(element: "info", attribute: "width", value: "70000")),
            ("<metadata xmlns='urn:xmpp:avatar:data'/>", .unexpectedElement(expected: "metadata", got: "metadata")),
        ]
        for (xml, expected) in cases {
            XCTAssertThrowsError(try AvatarMetadata(element: parseXMLDocument(xml)), xml) {
                XCTAssertEqual($0 as? StanzaParseError, expected, xml)
            }
        }
    }

    func testTooManyInfosAreRefused() throws {
        let infos = String(repeating: "<info bytes='1' id='a' type='image/png'/>", count: AvatarMetadata.maxInfos + 1)
        XCTAssertThrowsError(try AvatarMetadata(element: parseXMLDocument("<metadata xmlns='urn:xmpp:avatar:metadata'>\(infos)</metadata>")))
    }

    func testDataRefusesChildrenAndOtherNamespaces() {
        XCTAssertThrowsError(try AvatarData(element: parseXMLDocument("<data xmlns='urn:xmpp:avatar:data'>AA<b/>==</data>")))
        XCTAssertThrowsError(try AvatarData(element: parseXMLDocument("<data xmlns='urn:xmpp:bob'>AA==</data>"))) {
            XCTAssertEqual($0 as? StanzaParseError, .unexpectedElement(expected: "data", got: "data"))
        }
    }

    /// XEP-0084 §4.4 example: the PEP service returns the data item asked for by id; line feeds are accepted.
    func testDataItemResult() throws {
        let items = try PubSubItems(element: iqPayload("""
            <iq type='result' from='juliet@capulet.lit' to='romeo@montague.lit/home' id='retrieve1' xmlns='jabber:client'>
              <pubsub xmlns='http://jabber.org/protocol/pubsub'>
                <items node='urn:xmpp:avatar:data'>\(Self.dataItem)</items>
              </pubsub>
            </iq>
            """))
        XCTAssertEqual(items.node, "urn:xmpp:avatar:data")
        XCTAssertEqual(items.items.map(\.id), ["111f4b3c50d7b0df729d299bc6f8e9ef9066971f"])
        XCTAssertEqual(try AvatarData(element: XCTUnwrap(items.items.first?.payload)).compactBase64, "qANQR1DBwU4DX7jmYZnncm...")
        XCTAssertEqual(try PubSubItems(element: items.element), items)
    }

    /// XEP-0084 §4.4 example: the request for one data item by id.
    func testDataItemRequestByID() throws {
        let payload = try iqPayload("""
            <iq type='get' from='romeo@montague.lit/home' to='juliet@capulet.lit' id='retrieve1' xmlns='jabber:client'>
              <pubsub xmlns='http://jabber.org/protocol/pubsub'>
                <items node='urn:xmpp:avatar:data'>
                  <item id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f'/>
                </items>
              </pubsub>
            </iq>
            """)
        let request = PubSubItems(node: "urn:xmpp:avatar:data", items: [PubSubItem(id: "111f4b3c50d7b0df729d299bc6f8e9ef9066971f")])
        XCTAssertEqual(try PubSubItems(element: payload), request)
        XCTAssertEqual(request.element.serialized(),
                       "<pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='urn:xmpp:avatar:data'>"
                           + "<item id='111f4b3c50d7b0df729d299bc6f8e9ef9066971f'/></items></pubsub>")
    }
}
