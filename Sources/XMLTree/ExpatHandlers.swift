import CLibExpat

/// expat's callbacks: elements and text build trees; a document type declaration, an entity
/// declaration, a comment or a processing instruction is refused with the matching error.
extension ExpatSession {
    func installHandlers(_ parser: XML_Parser) {
        XML_SetElementHandler(
            parser,
            { userData, name, attributes in
                guard let session = ExpatSession.from(userData), !session.stopIfFailed(), let name else { return }
                session.startElement(name: name, attributes: attributes)
            },
            { userData, _ in
                guard let session = ExpatSession.from(userData), !session.stopIfFailed() else { return }
                if session.builder.close() {
                    session.stanzaBoundary()
                }
            })
        XML_SetCharacterDataHandler(parser) { userData, text, length in
            guard let session = ExpatSession.from(userData), !session.stopIfFailed(), let text, length > 0 else { return }
            text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                session.builder.characters(UnsafeBufferPointer(start: $0, count: Int(length)))
            }
        }
        XML_SetStartNamespaceDeclHandler(parser) { userData, prefix, uri in
            guard let session = ExpatSession.from(userData), !session.stopIfFailed() else { return }
            // `xmlns=''` (no namespace from here on) arrives with no URI.
            session.pendingDeclarations.append((prefix.map { String(cString: $0) }, uri.map { String(cString: $0) } ?? ""))
        }
        // Called at `<!DOCTYPE name`, before any internal subset is read.
        XML_SetStartDoctypeDeclHandler(parser) { userData, _, _, _, _ in refuse(userData, .doctypeForbidden) }
        XML_SetEntityDeclHandler(parser) { userData, _, _, _, _, _, _, _, _ in refuse(userData, .entityForbidden) }
        XML_SetSkippedEntityHandler(parser) { userData, _, _ in refuse(userData, .entityForbidden) }
        XML_SetProcessingInstructionHandler(parser) { userData, _, _ in refuse(userData, .processingInstructionForbidden) }
        XML_SetCommentHandler(parser) { userData, _ in refuse(userData, .commentForbidden) }
    }

    /// Stops expat if an error has been recorded; true if so (callbacks then do nothing).
    func stopIfFailed() -> Bool {
        guard failure != nil else { return false }
        halt()
        return true
    }

    /// Converts one start tag and opens the element (or the stream header). `name` and each
    /// attribute name are `local`, or `uri SEP local SEP prefix` when in a namespace.
    func startElement(name: UnsafePointer<CChar>, attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>?) {
        let declarations = pendingDeclarations
        pendingDeclarations.removeAll(keepingCapacity: true)
        var converted: [XMLAttribute] = []
        if let attributes {
            var index = 0
            while let attributeName = attributes[index], let value = attributes[index + 1] {
                converted.append(Self.attribute(name: attributeName, value: value))
                index += 2
            }
        }
        if converted.count + declarations.count > limits.maxAttributes {
            fail(.tooManyAttributes(limit: limits.maxAttributes))
            return
        }
        let element = Self.expandedName(name)
        if builder.expectsStreamHeader {
            let defaultNamespace = declarations.last(where: { $0.prefix == nil })?.uri
            builder.openHeader(
                XMLStreamHeader(
                    name: element.local, prefix: element.prefix, namespace: element.uri,
                    attributes: converted, defaultNamespace: defaultNamespace))
            stanzaBoundary()
        } else if let error = builder.open(XMLElement(element.local, namespace: element.uri, attributes: converted)) {
            fail(error)
        }
    }

    /// One attribute: a prefixed one keeps its qualified name, and its namespace unless that
    /// is `xml:`'s (the XML namespace is implied, never declared).
    private static func attribute(name: UnsafePointer<CChar>, value: UnsafePointer<CChar>) -> XMLAttribute {
        let expanded = expandedName(name)
        let text = String(cString: value)
        guard let prefix = expanded.prefix else {
            return XMLAttribute(name: expanded.local, value: text)
        }
        return XMLAttribute(name: prefix + ":" + expanded.local, value: text, namespace: prefix == "xml" ? nil : expanded.uri)
    }

    /// Splits expat's `uri SEP local [SEP prefix]` form.
    private static func expandedName(_ name: UnsafePointer<CChar>) -> (uri: String?, local: String, prefix: String?) {
        let start = UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)
        var length = 0
        while start[length] != 0 { length += 1 }
        let bytes = UnsafeBufferPointer(start: start, count: length)
        let parts = bytes.split(separator: UInt8(bitPattern: separator), maxSplits: 2, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        switch parts.count {
        case 1: return (nil, parts[0], nil)
        case 2: return (parts[0], parts[1], nil)
        default: return (parts[0], parts[1], parts[2])
        }
    }
}

private func refuse(_ userData: UnsafeMutableRawPointer?, _ error: XMLTreeError) {
    ExpatSession.from(userData)?.fail(error)
}
