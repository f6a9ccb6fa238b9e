import CLibExpat

/// One expat parser with its callbacks, byte accounting and error state.
///
/// Errors are recorded, never thrown from callbacks; the first one wins and is sticky.
final class ExpatSession {
    /// Bytes handed to expat per `XML_Parse` call, so limits are checked between pieces.
    static let pieceSize = 1 << 15
    /// Between a namespace URI, a local name and a prefix in the names expat reports: 0xFF
    /// never occurs in UTF-8, so it cannot be part of either.
    static let separator = CChar(bitPattern: 0xFF)

    let limits: XMLLimits
    var builder: TreeBuilder
    /// The first error seen; once set, nothing more is parsed.
    private(set) var failure: XMLTreeError?
    private var parser: XML_Parser?
    /// Bytes received so far; stream offsets count from the first one.
    private var bytesReceived = 0
    /// Bytes handed to expat so far (the rest are in `held`).
    private var bytesParsed = 0
    /// Stream offset where the current stanza (or header, or document) began.
    private var stanzaStart = 0
    /// Guards expat against attribute floods and unfinished-construct rescans.
    private var scanner: MarkupScanner
    /// Received bytes of an unfinished markup construct, not yet handed to expat.
    private var held: [UInt8] = []
    /// Namespace declarations of the start tag being reported (expat announces them first).
    var pendingDeclarations: [(prefix: String?, uri: String)] = []

    init(streamMode: Bool, limits: XMLLimits) {
        self.limits = limits
        builder = TreeBuilder(streamMode: streamMode, maxDepth: limits.maxDepth)
        scanner = MarkupScanner(maxAttributes: limits.maxAttributes)
        // "UTF-8" overrides any encoding declaration (RFC 6120 §11.6 allows UTF-8 only); a
        // UTF-16 byte order mark, which expat would still follow, is refused in `feed`.
        guard let parser = XML_ParserCreateNS("UTF-8", Self.separator) else {
            failure = .parserUnavailable
            return
        }
        self.parser = parser
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetReturnNSTriplet(parser, 1)
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        installHandlers(parser)
    }

    deinit {
        if let parser {
            XML_ParserFree(parser)
        }
    }

    /// The session whose address expat passes back as user data.
    static func from(_ userData: UnsafeMutableRawPointer?) -> ExpatSession? {
        guard let userData else { return nil }
        return Unmanaged<ExpatSession>.fromOpaque(userData).takeUnretainedValue()
    }

    /// Parses the next `bytes`, in pieces so limits are checked between them; `terminate` ends
    /// the document (document mode only).
    func feed(_ bytes: UnsafeBufferPointer<UInt8>, terminate: Bool = false) {
        guard failure == nil, let parser else { return }
        var offset = 0
        while failure == nil && offset < bytes.count {
            let count = min(Self.pieceSize, bytes.count - offset)
            let piece = UnsafeBufferPointer(rebasing: bytes[offset..<offset + count])
            offset += count
            refuseOtherEncodings(piece)
            bytesReceived += count
            guard failure == nil else { return }
            let scan = scanner.scan(piece)
            release(UnsafeBufferPointer(rebasing: piece[..<scan.releasable]), parser: parser)
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
            release(UnsafeBufferPointer(start: nil, count: 0), parser: parser, endOfInput: true)
            parse(UnsafeBufferPointer(start: nil, count: 0), parser: parser, terminate: true)
        }
    }

    /// A first byte 0x00, 0xFE or 0xFF, or a second byte 0x00, starts UTF-16 or UTF-32 (with
    /// or without a byte order mark); none of them can start UTF-8 XML.
    private func refuseOtherEncodings(_ piece: UnsafeBufferPointer<UInt8>) {
        guard bytesReceived < 2 else { return }
        for position in bytesReceived..<min(2, bytesReceived + piece.count) {
            let byte = piece[position - bytesReceived]
            if byte == 0 || (position == 0 && byte >= 0xFE) {
                record(.malformed("line 1, column 1: the input is not UTF-8"))
            }
        }
    }

    /// Hands `held` and then `complete` (which ends outside any construct) to expat; `held`
    /// alone only at the end of input.
    private func release(_ complete: UnsafeBufferPointer<UInt8>, parser: XML_Parser, endOfInput: Bool = false) {
        guard failure == nil, !complete.isEmpty || endOfInput else { return }
        if held.isEmpty {
            if !complete.isEmpty { parse(complete, parser: parser, terminate: false) }
            return
        }
        held.append(contentsOf: complete)
        held.withUnsafeBufferPointer { parse($0, parser: parser, terminate: false) }
        held.removeAll(keepingCapacity: held.capacity <= Self.pieceSize)
    }

    private func parse(_ piece: UnsafeBufferPointer<UInt8>, parser: XML_Parser, terminate: Bool) {
        guard failure == nil else { return }
        var offset = 0
        repeat {  // at most Int32.max bytes per call; held-back input can exceed it only with huge limits
            let count = min(piece.count - offset, Int(Int32.max))
            let slice = UnsafeBufferPointer(rebasing: piece[offset..<offset + count])
            let sliceStart = bytesParsed
            offset += count
            bytesParsed += count
            let status = slice.withMemoryRebound(to: CChar.self) { chars in
                XML_Parse(parser, chars.baseAddress, Int32(clamping: chars.count), terminate && offset == piece.count ? 1 : 0)
            }
            if status != XML_STATUS_OK && failure == nil {
                failure = Self.error(of: parser, in: slice, startingAt: sliceStart)
            }
        } while failure == nil && offset < piece.count
    }

    /// Hands out the completed events.
    func takeEvents() -> [XMLStreamEvent] {
        defer { builder.events.removeAll() }
        return builder.events
    }

    // MARK: Called from the callbacks

    /// Records `error` (unless one is already recorded) and stops expat.
    func fail(_ error: XMLTreeError) {
        record(error)
        halt()
    }

    /// Stops expat; allowed from inside its callbacks, where it takes effect when they return.
    func halt() {
        if let parser {
            XML_StopParser(parser, 0)
        }
    }

    /// Records `error` (unless one is already recorded) without stopping the parser.
    func record(_ error: XMLTreeError) {
        if failure == nil {
            failure = error
        }
    }

    /// Marks the end of the stream header or of a depth-1 element: the end of the tag being
    /// reported, `>` or `/>` included.
    func stanzaBoundary() {
        guard let parser else { return }
        let end = Int(XML_GetCurrentByteIndex(parser)) + Int(XML_GetCurrentByteCount(parser))
        if end - stanzaStart > limits.maxStanzaBytes {
            fail(.stanzaTooLarge(limit: limits.maxStanzaBytes))
        }
        stanzaStart = end
    }

    /// The typed error for what stopped expat while it parsed `slice` (stream offset
    /// `sliceStart`): a reference to an undeclared entity is `entityForbidden`; the rest is
    /// "line L, column C: message" on one line, which names bytes that are not UTF-8 as such.
    private static func error(of parser: XML_Parser, in slice: UnsafeBufferPointer<UInt8>, startingAt sliceStart: Int)
        -> XMLTreeError
    {
        let code = XML_GetErrorCode(parser)
        if code == XML_ERROR_UNDEFINED_ENTITY {
            return .entityForbidden
        }
        var message = XML_ErrorString(code).map { String(cString: $0) } ?? "expat error \(code.rawValue)"
        let at = Int(XML_GetCurrentByteIndex(parser)) - sliceStart
        if code == XML_ERROR_INVALID_TOKEN, at >= 0, at < slice.count,
            let byte = invalidUTF8(UnsafeBufferPointer(rebasing: slice[at..<min(slice.count, at + 4)]))
        {
            message = "the input is not UTF-8 (byte 0x" + String(byte, radix: 16, uppercase: true) + ")"
        }
        // expat counts columns from 0.
        return .malformed(
            "line \(XML_GetCurrentLineNumber(parser)), column \(XML_GetCurrentColumnNumber(parser) + 1): \(message)")
    }

    /// The first byte of `bytes` when they do not start with a whole UTF-8 sequence (a cut-off
    /// one at the end of the input counts as whole), else nil.
    private static func invalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
        guard let first = bytes.first else { return nil }
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        switch decoder.decode(&iterator) {
        case .scalarValue, .emptyInput: return nil
        case .error: return bytes.count < 4 && first >= 0xC2 && first <= 0xF4 ? nil : first
        }
    }
}
