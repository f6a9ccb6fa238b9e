import XCTest
import XMLTree

/// Namespaces and stream snippets shared by the tests.
enum Fixture {
    static let streams = "http://etherx.jabber.org/streams"
    static let client = "jabber:client"
    static let header = header(id: "s1")
    static func header(id: String) -> String {
        "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'"
            + " from='example.org' id='\(id)' xml:lang='en' version='1.0'>"
    }
    static let expectedHeader = XMLStreamHeader(
        name: "stream", prefix: "stream", namespace: streams,
        attributes: [
            XMLAttribute(name: "from", value: "example.org"), XMLAttribute(name: "id", value: "s1"),
            XMLAttribute(name: "xml:lang", value: "en"), XMLAttribute(name: "version", value: "1.0"),
        ],
        defaultNamespace: client)
}

/// Feeds `chunks` in order and returns all events.
func feedAll(_ parser: XMLStreamParser, _ chunks: [[UInt8]]) throws(XMLTreeError) -> [XMLStreamEvent] {
    var events: [XMLStreamEvent] = []
    for chunk in chunks {
        events += try parser.feed(chunk)
    }
    return events
}

/// The error thrown by feeding `text` to a new parser in one chunk, or nil.
func streamError(_ text: String, limits: XMLLimits = XMLLimits()) -> XMLTreeError? {
    do {
        _ = try XMLStreamParser(limits: limits).feed(Array(text.utf8))
        return nil
    } catch {
        return error
    }
}

/// The error thrown by parsing `text` as a document, or nil.
func documentError(_ text: String, limits: XMLLimits = XMLLimits()) -> XMLTreeError? {
    do {
        _ = try parseXMLDocument(text, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// The message of a `.malformed` error, or nil for any other outcome.
func malformedMessage(_ error: XMLTreeError?) -> String? {
    if case .malformed(let message)? = error { return message }
    return nil
}
