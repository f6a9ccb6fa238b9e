import CLibXML2

/// The SAX2 callbacks: elements and text build trees; everything a DTD, entity, comment or
/// processing instruction would need is refused with the matching error.
func makeSAXHandler() -> xmlSAXHandler {
    var handler = xmlSAXHandler()
    handler.initialized = UInt32(XML_SAX2_MAGIC)
    handler.startElementNs = { userData, localName, prefix, uri, namespaceCount, namespaces, attributeCount, _, attributes in
        guard let session = LibXMLSession.from(userData), !session.stopIfFailed(), let localName else { return }
        session.startElement(
            localName: localName, prefix: prefix, uri: uri,
            namespaces: UnsafeBufferPointer(start: namespaces, count: namespaces == nil ? 0 : 2 * max(0, Int(namespaceCount))),
            attributes: UnsafeBufferPointer(start: attributes, count: attributes == nil ? 0 : 5 * max(0, Int(attributeCount))))
    }
    handler.endElementNs = { userData, _, _, _ in
        guard let session = LibXMLSession.from(userData), !session.stopIfFailed() else { return }
        if session.builder.close() {
            session.stanzaBoundary()
        }
    }
    handler.characters = characters
    handler.ignorableWhitespace = characters
    handler.cdataBlock = characters
    handler.serror = { userData, error in
        guard let session = LibXMLSession.from(userData), let error else { return }
        session.record(error)
    }

    handler.internalSubset = { userData, _, _, _ in refuse(userData, .doctypeForbidden) }
    handler.externalSubset = { userData, _, _, _ in refuse(userData, .doctypeForbidden) }
    handler.elementDecl = { userData, _, _, _ in refuse(userData, .doctypeForbidden) }
    handler.attributeDecl = { userData, _, _, _, _, _, _ in refuse(userData, .doctypeForbidden) }
    handler.notationDecl = { userData, _, _, _ in refuse(userData, .doctypeForbidden) }
    handler.entityDecl = { userData, _, _, _, _, _ in refuse(userData, .entityForbidden) }
    handler.unparsedEntityDecl = { userData, _, _, _, _ in refuse(userData, .entityForbidden) }
    handler.reference = { userData, _ in refuse(userData, .entityForbidden) }
    // Asked only for entities other than the five predefined ones. Answering nil makes libxml2
    // raise its own fatal error, so the parser is not halted from inside entity parsing.
    handler.getEntity = { userData, _ in
        LibXMLSession.from(userData)?.record(.entityForbidden)
        return nil
    }
    handler.getParameterEntity = { userData, _ in
        LibXMLSession.from(userData)?.record(.entityForbidden)
        return nil
    }
    handler.resolveEntity = { userData, _, _ in
        LibXMLSession.from(userData)?.record(.entityForbidden)
        return nil
    }
    handler.processingInstruction = { userData, _, _ in refuse(userData, .processingInstructionForbidden) }
    handler.comment = { userData, _ in refuse(userData, .commentForbidden) }
    return handler
}

/// Character data, ignorable whitespace and CDATA all become text.
private let characters: charactersSAXFunc = { userData, bytes, length in
    guard let session = LibXMLSession.from(userData), !session.stopIfFailed(), let bytes, length > 0 else { return }
    session.builder.characters(UnsafeBufferPointer(start: bytes, count: Int(length)))
}

private func refuse(_ userData: UnsafeMutableRawPointer?, _ error: XMLTreeError) {
    LibXMLSession.from(userData)?.fail(error)
}

extension LibXMLSession {
    /// Converts one libxml2 start tag and opens the element (or the stream header).
    func startElement(
        localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        namespaces: UnsafeBufferPointer<UnsafePointer<xmlChar>?>,
        attributes: UnsafeBufferPointer<UnsafePointer<xmlChar>?>
    ) {
        if builder.openDepth == 0 && !inputIsUTF8 {
            fail(.malformed("line 1, column 1: the input is not UTF-8"))
            return
        }
        if attributes.count / 5 + namespaces.count / 2 > limits.maxAttributes {
            fail(.tooManyAttributes(limit: limits.maxAttributes))
            return
        }
        let name = String(cString: localName)
        let namespace = uri.map(Self.namespaceURI)
        var converted: [XMLAttribute] = []
        converted.reserveCapacity(attributes.count / 5)
        for index in stride(from: 0, to: attributes.count - 4, by: 5) {
            guard let attributeName = attributes[index], let start = attributes[index + 3],
                let end = attributes[index + 4]
            else { continue }
            converted.append(
                Self.attribute(
                    localName: attributeName, prefix: attributes[index + 1], uri: attributes[index + 2],
                    value: UnsafeBufferPointer(start: start, count: max(0, end - start))))
        }
        if builder.expectsStreamHeader {
            var defaultNamespace: String?
            for index in stride(from: 0, to: namespaces.count - 1, by: 2) where namespaces[index] == nil {
                defaultNamespace = namespaces[index + 1].map(Self.namespaceURI) ?? ""
            }
            builder.openHeader(
                XMLStreamHeader(
                    name: name, prefix: prefix.map { String(cString: $0) }, namespace: namespace,
                    attributes: converted, defaultNamespace: defaultNamespace))
            stanzaBoundary(afterStartTag: true)
        } else if let error = builder.open(XMLElement(name, namespace: namespace, attributes: converted)) {
            fail(error)
        }
    }

    /// One attribute from libxml2's five-pointer form.
    private static func attribute(
        localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        value: UnsafeBufferPointer<xmlChar>
    ) -> XMLAttribute {
        let local = String(cString: localName)
        guard let prefix else {
            return XMLAttribute(name: local, value: attributeValue(value))
        }
        let prefixText = String(cString: prefix)
        let namespace = prefixText == "xml" ? nil : uri.map(namespaceURI)
        return XMLAttribute(name: prefixText + ":" + local, value: attributeValue(value), namespace: namespace)
    }

    /// A namespace URI as libxml2 hands it over: it was declared in an attribute value, so an
    /// `&` in it arrives as `&#38;` too (`xmlns='urn:a&amp;b'` is `urn:a&b`, not `urn:a&#38;b`).
    private static func namespaceURI(_ uri: UnsafePointer<xmlChar>) -> String {
        attributeValue(UnsafeBufferPointer(start: uri, count: Int(max(0, xmlStrlen(uri)))))
    }

    /// Without entity substitution libxml2 hands `&` in attribute values over as `&#38;`
    /// (every other reference is already replaced), so that is the only sequence to decode.
    private static func attributeValue(_ bytes: UnsafeBufferPointer<xmlChar>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let reference = Array("&#38;".utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), index + reference.count <= bytes.count,
                bytes[index..<index + reference.count].elementsEqual(reference)
            {
                decoded.append(UInt8(ascii: "&"))
                index += reference.count
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
