/// Builds `XMLElement` trees from start/end/text events, in stream mode (depth 0 is the stream
/// header, each completed depth-1 element is an event) or document mode (one root element).
struct TreeBuilder {
    /// Whether depth 0 is a stream header rather than a document root.
    let streamMode: Bool
    /// Deepest element allowed (the header or root is depth 0).
    let maxDepth: Int
    /// Open elements, the stream header included.
    private(set) var openDepth = 0
    /// Elements under construction, outermost first (the stream header is never on it).
    private var stack: [XMLElement] = []
    /// UTF-8 of adjacent character callbacks, coalesced into one text node when flushed.
    private var pendingText: [UInt8] = []
    /// Completed stream events not yet handed out.
    var events: [XMLStreamEvent] = []
    /// The completed root element in document mode.
    private(set) var document: XMLElement?

    init(streamMode: Bool, maxDepth: Int) {
        self.streamMode = streamMode
        self.maxDepth = maxDepth
    }

    /// True when the next element to open is the stream header.
    var expectsStreamHeader: Bool { streamMode && openDepth == 0 }

    /// Records the stream header opening.
    mutating func openHeader(_ header: XMLStreamHeader) {
        openDepth = 1
        events.append(.streamOpened(header))
    }

    /// Opens an element below the current one.
    mutating func open(_ element: XMLElement) -> XMLTreeError? {
        if openDepth > maxDepth {
            return .tooDeep(limit: maxDepth)
        }
        flushText()
        stack.append(element)
        openDepth += 1
        return nil
    }

    /// Closes the innermost open element; true when that completed a stanza, the stream, or the document.
    mutating func close() -> Bool {
        guard openDepth > 0 else { return false }
        flushText()
        openDepth -= 1
        if streamMode && openDepth == 0 {
            events.append(.streamClosed)
            return true
        }
        guard let element = stack.popLast() else { return false }
        if stack.isEmpty {
            if streamMode {
                events.append(.element(element))
            } else {
                document = element
            }
            return true
        }
        stack[stack.count - 1].children.append(.element(element))
        return false
    }

    /// Adds character data to the innermost element; text directly under the stream header is dropped.
    mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !stack.isEmpty else { return }
        pendingText.append(contentsOf: bytes)
    }

    /// Turns pending character data into one text node of the innermost element.
    private mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        if !stack.isEmpty {
            stack[stack.count - 1].children.append(.text(String(decoding: pendingText, as: UTF8.self)))
        }
        pendingText.removeAll(keepingCapacity: pendingText.capacity <= 1 << 16)
    }
}
