import CLibXML2

/// libxml2 must be initialised once per process before contexts are used from several threads.
private let libxmlInitialized: Void = xmlInitParser()

/// One libxml2 push-parser context with its SAX2 callbacks, byte accounting and error state.
///
/// Errors are recorded, never thrown from callbacks; the first one wins and is sticky.
final class LibXMLSession {
    /// Bytes handed to libxml2 per `xmlParseChunk` call, so limits are checked between pieces.
    static let pieceSize = 1 << 15

    let limits: XMLLimits
    var builder: TreeBuilder
    /// The first error seen; once set, nothing more is parsed.
    private(set) var failure: XMLTreeError?
    private var context: xmlParserCtxtPtr?
    /// Bytes handed to libxml2 so far.
    private var bytesFed = 0
    /// Stream offset where the current stanza (or header, or document) began.
    private var stanzaStart = 0
    /// Counts attributes in start tags before libxml2 parses them (its checks are quadratic).
    private var attributeGuard: AttributeGuard

    init(streamMode: Bool, limits: XMLLimits) {
        self.limits = limits
        builder = TreeBuilder(streamMode: streamMode, maxDepth: limits.maxDepth)
        attributeGuard = AttributeGuard(maxAttributes: limits.maxAttributes)
        _ = libxmlInitialized
        var handler = makeSAXHandler()
        let userData = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&handler, userData, nil, 0, nil) else {
            failure = .parserUnavailable
            return
        }
        // No entity substitution, no DTD loading or validation, no network; the stream is UTF-8
        // whatever its XML declaration says (RFC 6120 §11.6).
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
        xmlCtxtUseOptions(context, options)
        xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8)
        self.context = context
    }

    deinit {
        if let context {
            xmlFreeParserCtxt(context)
        }
    }

    /// The session whose address libxml2 passes back as user data.
    static func from(_ userData: UnsafeMutableRawPointer?) -> LibXMLSession? {
        guard let userData else { return nil }
        return Unmanaged<LibXMLSession>.fromOpaque(userData).takeUnretainedValue()
    }

    /// Parses `bytes`, in pieces; `terminate` ends the document (document mode only).
    func feed(_ bytes: UnsafeBufferPointer<UInt8>, terminate: Bool = false) {
        guard failure == nil, let context else { return }
        var offset = 0
        while failure == nil && offset < bytes.count {
            let count = min(Self.pieceSize, bytes.count - offset)
            let piece = UnsafeBufferPointer(rebasing: bytes[offset..<offset + count])
            offset += count
            let safeCount = attributeGuard.scan(piece)
            parse(UnsafeBufferPointer(rebasing: piece[0..<safeCount]), context: context, terminate: false)
            if failure == nil && safeCount < count {
                failure = .tooManyAttributes(limit: limits.maxAttributes)
            }
            if failure == nil && bytesFed - stanzaStart > limits.maxStanzaBytes {
                failure = .stanzaTooLarge(limit: limits.maxStanzaBytes)
            }
        }
        if terminate && failure == nil {
            parse(UnsafeBufferPointer(start: nil, count: 0), context: context, terminate: true)
        }
    }

    private func parse(_ piece: UnsafeBufferPointer<UInt8>, context: xmlParserCtxtPtr, terminate: Bool) {
        bytesFed += piece.count
        let status = piece.withMemoryRebound(to: CChar.self) { chars in
            xmlParseChunk(context, chars.baseAddress, Int32(chars.count), terminate ? 1 : 0)
        }
        if status != 0 && failure == nil {
            failure = .malformed(Self.describe(xmlCtxtGetLastError(context)) ?? "libxml2 error \(status)")
        }
    }

    /// Hands out the completed events.
    func takeEvents() -> [XMLStreamEvent] {
        defer { builder.events.removeAll() }
        return builder.events
    }

    // MARK: Called from the SAX callbacks

    /// Records `error` (unless one is already recorded) and stops libxml2.
    func fail(_ error: XMLTreeError) {
        if failure == nil {
            failure = error
        }
        halt()
    }

    /// Records `error` (unless one is already recorded) without halting the parser.
    func record(_ error: XMLTreeError) {
        if failure == nil {
            failure = error
        }
    }

    /// Stops libxml2 if an error has been recorded; true if so (callbacks then do nothing).
    func stopIfFailed() -> Bool {
        guard failure != nil else { return false }
        halt()
        return true
    }

    private func halt() {
        if let context {
            xmlStopParser(context)
        }
    }

    /// Records a libxml2 error or fatal error; warnings are ignored. Does not stop the parser:
    /// this runs inside libxml2's own error path, where halting could free input still in use.
    func record(_ error: UnsafePointer<xmlError>) {
        guard failure == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        failure = .malformed(Self.describe(error) ?? "libxml2 error \(error.pointee.code)")
    }

    /// Marks the end of the stream header or of a depth-1 element at the parser's position.
    /// Start-tag callbacks run before libxml2 consumes the tag's closing `>`, so `afterStartTag`
    /// counts that too.
    func stanzaBoundary(afterStartTag: Bool = false) {
        let end = currentOffset() + (afterStartTag ? pendingTagCloseLength() : 0)
        if end - stanzaStart > limits.maxStanzaBytes {
            fail(.stanzaTooLarge(limit: limits.maxStanzaBytes))
        }
        stanzaStart = end
    }

    /// The stream offset libxml2 has consumed up to.
    private func currentOffset() -> Int {
        guard let context else { return bytesFed }
        let consumed = Int(xmlByteConsumed(context))
        return consumed >= 0 && consumed <= bytesFed ? consumed : bytesFed
    }

    /// Length of the `>` or `/>` at libxml2's cursor, or 0.
    private func pendingTagCloseLength() -> Int {
        guard let input = context?.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end else { return 0 }
        if cur < end && cur[0] == UInt8(ascii: ">") { return 1 }
        if end - cur >= 2 && cur[0] == UInt8(ascii: "/") && cur[1] == UInt8(ascii: ">") { return 2 }
        return 0
    }

    /// "line L, column C: message" on one line.
    private static func describe(_ error: UnsafePointer<xmlError>?) -> String? {
        guard let error, let message = error.pointee.message else { return nil }
        let text = String(cString: message)
            .split(whereSeparator: { $0.isNewline })
            .map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
        return "line \(error.pointee.line), column \(error.pointee.int2): \(text)"
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
