/// Why a received element could not be read as the stanza or payload it claims to be.
public enum StanzaParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The element is a different element than expected.
    case unexpectedElement(expected: String, got: String)
    /// A required attribute is missing.
    case missingAttribute(element: String, attribute: String)
    /// An attribute has a value the spec does not allow.
    case invalidAttribute(element: String, attribute: String, value: String)
    /// An address attribute does not parse as a JID.
    case invalidJID(attribute: String, value: String, JIDError)
    /// A required child element is missing.
    case missingChild(element: String, child: String)
    /// Other malformed content, described.
    case invalidContent(String)

    public var description: String {
        switch self {
        case .unexpectedElement(let e, let g): return "expected <\(e)>, got <\(g)>"
        case .missingAttribute(let e, let a): return "<\(e)> lacks the '\(a)' attribute"
        case .invalidAttribute(let e, let a, let v): return "<\(e)> has an invalid \(a)='\(v)'"
        case .invalidJID(let a, let v, let err): return "invalid address in \(a)='\(v)': \(err)"
        case .missingChild(let e, let c): return "<\(e)> lacks <\(c)>"
        case .invalidContent(let s): return s
        }
    }
}
