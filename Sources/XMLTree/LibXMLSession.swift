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
    /// Bytes received so far; stream offsets count from the first one.
    private var bytesReceived = 0
    /// Bytes handed to libxml2 so far (the rest are in `held`).
    private var bytesParsed = 0
    /// Stream offset where the current stanza (or header, or document) began.
    private var stanzaStart = 0
    /// Guards libxml2 against attribute floods and unfinished-construct rescans.
    private var scanner: MarkupScanner
    /// Received bytes of an unfinished markup construct, not yet handed to libxml2.
    private var held: [UInt8] = []

    init(streamMode: Bool, limits: XMLLimits) {
        self.limits = limits
        builder = TreeBuilder(streamMode: streamMode, maxDepth: limits.maxDepth)
        scanner = MarkupScanner(maxAttributes: limits.maxAttributes)
        _ = libxmlInitialized
        var handler = makeSAXHandler()
        let userData = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&handler, userData, nil, 0, nil) else {
            failure = .parserUnavailable
            return
        }
        // No entity substitution, no DTD loading or validation, no network. The encoding
        // declaration is ignored; a BOM or byte pattern selecting anything but UTF-8 is refused
        // at the first element (RFC 6120 §11.6).
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue))
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

    /// Parses the next `bytes`, in pieces so limits are checked between them; `terminate` ends
    /// the document (document mode only).
    func feed(_ bytes: UnsafeBufferPointer<UInt8>, terminate: Bool = false) {
        guard failure == nil, let context else { return }
        var offset = 0
        while failure == nil && offset < bytes.count {
            let count = min(Self.pieceSize, bytes.count - offset)
            let piece = UnsafeBufferPointer(rebasing: bytes[offset..<offset + count])
            offset += count
            bytesReceived += count
            let scan = scanner.scan(piece)
            release(UnsafeBufferPointer(rebasing: piece[..<scan.releasable]), context: context)
            if scan.tooManyAttributes {
                record(.tooManyAttributes(limit: limits.maxAttributes))
            } else {
                held.append(contentsOf: piece[scan.releasable...])
            }
            if bytesReceived - stanzaStart > limits.maxStanzaBytes {
                record(.stanzaTooLarge(limit: limits.maxStanzaBytes))
            }
        }
        if terminate && failure == nil {
            release(UnsafeBufferPointer(start: nil, count: 0), context: context, endOfInput: true)
            parse(UnsafeBufferPointer(start: nil, count: 0), context: context, terminate: true)
        }
    }

    /// Hands `held` and then `complete` (which ends outside any construct) to libxml2; `held`
    /// alone only at the end of input.
    private func release(_ complete: UnsafeBufferPointer<UInt8>, context: xmlParserCtxtPtr, endOfInput: Bool = false) {
        guard failure == nil, !complete.isEmpty || endOfInput else { return }
        if held.isEmpty {
            if !complete.isEmpty { parse(complete, context: context, terminate: false) }
            return
        }
        held.append(contentsOf: complete)
        held.withUnsafeBufferPointer { parse($0, context: context, terminate: false) }
        held.removeAll(keepingCapacity: held.capacity <= Self.pieceSize)
    }

    private func parse(_ piece: UnsafeBufferPointer<UInt8>, context: xmlParserCtxtPtr, terminate: Bool) {
        guard failure == nil else { return }
        var offset = 0
        repeat {  // at most Int32.max bytes per call; held-back input can exceed it only with huge limits
            let count = min(piece.count - offset, Int(Int32.max))
            let slice = UnsafeBufferPointer(rebasing: piece[offset..<offset + count])
            offset += count
            bytesParsed += count
            let status = slice.withMemoryRebound(to: CChar.self) { chars in
                xmlParseChunk(context, chars.baseAddress, Int32(clamping: chars.count), terminate && offset == piece.count ? 1 : 0)
            }
            if status != 0 && failure == nil {
                failure = .malformed(Self.describe(xmlCtxtGetLastError(context)) ?? "libxml2 error \(status)")
            }
        } while failure == nil && offset < piece.count
    }

    /// False once libxml2 has switched to a decoder, i.e. detected an encoding other than UTF-8.
    var inputIsUTF8: Bool {
        context?.pointee.input?.pointee.buf?.pointee.encoder == nil
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
        guard let context else { return bytesParsed }
        let consumed = Int(xmlByteConsumed(context))
        return consumed >= 0 && consumed <= bytesParsed ? consumed : bytesParsed
    }

    /// Length of the `>` or `/>` at libxml2's cursor, or 0.
    private func pendingTagCloseLength() -> Int {
        guard let input = context?.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end else { return 0 }
        if cur < end && cur[0] == UInt8(ascii: ">") { return 1 }
        if end - cur >= 2 && cur[0] == UInt8(ascii: "/") && cur[1] == UInt8(ascii: ">") { return 2 }
        return 0
    }

    /// "line L, column C: message" on one line, its words separated by single spaces.
    private static func describe(_ error: UnsafePointer<xmlError>?) -> String? {
        guard let error, let message = error.pointee.message else { return nil }
        let text = String(cString: message).unicodeScalars
            .split(whereSeparator: { $0.properties.isWhitespace })
            .map(String.init)
            .joined(separator: " ")
        return "line \(error.pointee.line), column \(error.pointee.int2): \(text)"
    }
}
