/// Why XML could not be parsed. Every case is a reason to drop the stream.
public enum XMLTreeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not well-formed or not namespace-well-formed: libxml2's message with line and column.
    case malformed(String)
    /// A document type declaration (`<!DOCTYPE …>`) appeared; XMPP forbids them.
    case doctypeForbidden
    /// A reference to an entity other than the five predefined ones appeared.
    case entityForbidden
    /// A processing instruction (other than the leading XML declaration) appeared.
    case processingInstructionForbidden
    /// A comment appeared; XMPP forbids them.
    case commentForbidden
    /// One stanza (or the whole document) exceeded `XMLLimits.maxStanzaBytes`.
    case stanzaTooLarge(limit: Int)
    /// Elements nested deeper than `XMLLimits.maxDepth`.
    case tooDeep(limit: Int)
    /// One element carried more than `XMLLimits.maxAttributes` attributes.
    case tooManyAttributes(limit: Int)
    /// libxml2 could not create a parser context (out of memory).
    case parserUnavailable

    /// One line of human-readable text.
    public var description: String {
        switch self {
        case .malformed(let message): return "malformed XML: \(message)"
        case .doctypeForbidden: return "XML document type declarations are not allowed"
        case .entityForbidden: return "XML entity references other than the predefined ones are not allowed"
        case .processingInstructionForbidden: return "XML processing instructions are not allowed"
        case .commentForbidden: return "XML comments are not allowed"
        case .stanzaTooLarge(let limit): return "XML stanza larger than \(limit) bytes"
        case .tooDeep(let limit): return "XML elements nested deeper than \(limit) levels"
        case .tooManyAttributes(let limit): return "XML element with more than \(limit) attributes"
        case .parserUnavailable: return "could not create an XML parser"
        }
    }
}
