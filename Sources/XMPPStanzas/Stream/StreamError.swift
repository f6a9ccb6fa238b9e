import XMLTree

/// A stream-level error (RFC 6120 §4.9): the server ends the stream with `<stream:error>`.
public struct StreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The defined condition, e.g. `host-unknown`, `policy-violation`.
    public var condition: String
    /// The server's text, if any.
    public var text: String?

    /// Builds a value.
    public init(condition: String, text: String? = nil) {
        self.condition = condition
        self.text = text
    }

    /// Reads a `<stream:error>` element.
    public init(element: XMLElement) {
        condition = element.elements.first { $0.namespace == Namespace.streamErrors && $0.name != "text" }?.name
            ?? "undefined-condition"
        let t = element.child("text", namespace: Namespace.streamErrors)?.text
        text = (t?.isEmpty ?? true) ? nil : t
    }

    /// One line: condition plus text.
    public var description: String {
        text.map { "\(condition): \($0)" } ?? condition
    }

    /// True for `<stream:error>` elements.
    public static func matches(_ element: XMLElement) -> Bool {
        element.name == "error" && element.namespace == Namespace.streams
    }
}
