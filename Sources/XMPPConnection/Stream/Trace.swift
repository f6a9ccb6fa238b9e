import XMLTree
import XMPPStanzas

/// Which way a traced piece of XML travelled.
public enum TraceDirection: String, Sendable { case sent = "SEND", received = "RECV" }

/// Receives traced XML (`--trace`); the command decides where it goes.
public typealias TraceSink = (TraceDirection, String) -> Void

/// Hides credentials before XML reaches a trace, by what each piece is rather than by its
/// name: SASL and SASL2 payloads, FAST tokens, registration passwords, XEP-0401 invite tokens
/// (`<preauth token=…/>` and every `preauth=` parameter of a URI, wherever it appears), the
/// values of data-form fields of type `text-private`, and of fields the command knows to be
/// secret (`secretFields`: `xmpp-adhoc --password-field NAME`, whatever NAME is). A field is
/// remembered as private once any form of the stream has declared it so, because a submitted
/// form carries no types (XEP-0004 §3.2); a token or private value once seen is hidden wherever
/// it comes back (a landing page that repeats an invite's token).
public final class TraceRedaction {
    static let redacted = "[redacted]"
    static let saslPayloads: Set<String> = ["auth", "challenge", "response", "success"]
    static let sasl2Payloads: Set<String> = ["initial-response", "challenge", "response", "additional-data"]
    /// Shortest value hidden wherever it appears: shorter ones would blank ordinary words.
    static let minimumSecretLength = 6

    /// Data-form field names whose values are secret.
    private(set) var secretFields: Set<String> = []
    /// Secret strings seen so far (tokens, private values, a password the command was given).
    private(set) var secretValues: Set<String> = []

    /// A redaction that knows nothing yet.
    public init() {}

    /// Hides the values of data-form fields named `name` from now on.
    public func addSecretField(_ name: String) { secretFields.insert(name) }

    /// Hides `value` wherever it appears from now on (a password read for a form field).
    public func addSecretValue(_ value: String) {
        if value.utf8.count >= Self.minimumSecretLength { secretValues.insert(value) }
    }

    /// A copy of `element` that is safe to print.
    public func redact(_ element: XMLElement) -> XMLElement {
        learn(element)
        return scrub(element)
    }

    /// Collects what `element` shows to be secret before any of it is printed, so a field
    /// declared private later in the same stanza (or a token repeated before its URI) is hidden too.
    private func learn(_ element: XMLElement) {
        if element.namespace == Namespace.dataForms && element.name == "field", let name = element[attribute: "var"] {
            if element[attribute: "type"] == "text-private" || secretFields.contains(name) {
                secretFields.insert(name)
                for value in element.children("value", namespace: Namespace.dataForms) { addSecretValue(value.text) }
            }
        }
        if element.namespace == Namespace.preauth, let token = element[attribute: "token"] { addSecretValue(token) }
        for attribute in element.attributes { learnTokens(in: attribute.value) }
        for node in element.children {
            switch node {
            case .element(let child): learn(child)
            case .text(let text): learnTokens(in: text)
            default: break
            }
        }
    }

    private func learnTokens(in text: String) {
        for token in Self.preauthTokens(in: text) { addSecretValue(token) }
    }

    private func scrub(_ element: XMLElement) -> XMLElement {
        if element.namespace == Namespace.sasl && Self.saslPayloads.contains(element.name) {
            return XMLElement(element.name, namespace: element.namespace, attributes: element.attributes,
                              children: element.children.map { node in
                                  if case .text(let t) = node, !t.isEmpty { return .text(Self.redacted) }
                                  if case .element(let e) = node { return .element(scrub(e)) }
                                  return node
                              })
        }
        if element.namespace == Namespace.sasl2 && Self.sasl2Payloads.contains(element.name) {
            return XMLElement(element.name, namespace: element.namespace, attributes: element.attributes,
                              children: element.text.isEmpty ? [] : [.text(Self.redacted)])
        }
        var copy = element
        if element.namespace == Namespace.fast && element.name == "token" && element[attribute: "token"] != nil {
            copy[attribute: "token"] = Self.redacted
        }
        if element.namespace == Namespace.preauth && element[attribute: "token"] != nil {
            copy[attribute: "token"] = Self.redacted
        }
        let isSecret = (element.namespace == Namespace.register && (element.name == "password" || element.name == "old_password"))
        if isSecret { return XMLElement(element.name, namespace: element.namespace, children: [.text(Self.redacted)]) }
        let name = element[attribute: "var"]
        let isSecretField = element.namespace == Namespace.dataForms && element.name == "field"
            && (element[attribute: "type"] == "text-private" || name.map(secretFields.contains) == true
                || name?.lowercased().contains("password") == true)
        for attribute in copy.attributes where attribute.name != "token" || copy[attribute: "token"] != Self.redacted {
            let hidden = hide(attribute.value)
            if hidden != attribute.value { copy[attribute: attribute.name] = hidden }
        }
        copy.children = element.children.map { node in
            switch node {
            case .element(let child):
                if isSecretField && child.name == "value" {
                    return .element(XMLElement("value", namespace: child.namespace, children: [.text(Self.redacted)]))
                }
                return .element(scrub(child))
            case .text(let text): return .text(hide(text))
            default: return node
            }
        }
        return copy
    }

    /// `text` with every `preauth=` token and every known secret replaced.
    func hide(_ text: String) -> String {
        guard !secretValues.isEmpty || text.contains("preauth=") else { return text }
        var out = text
        for token in Self.preauthTokens(in: out) { out = out.replacing(token, with: Self.redacted) }
        for secret in secretValues.sorted(by: { $0.utf8.count > $1.utf8.count }) where out.contains(secret) {
            out = out.replacing(secret, with: Self.redacted)
        }
        return out
    }

    /// The values of `preauth=` parameters in `text` (up to `;`, `&`, a quote, `<` or white space).
    static func preauthTokens(in text: String) -> [String] {
        var tokens: [String] = []
        var rest = Substring(text)
        while let range = rest.firstRange(of: "preauth=") {
            let after = rest[range.upperBound...]
            let token = after.prefix { !";&\"'<> \t\r\n".contains($0) }
            if !token.isEmpty { tokens.append(String(token)) }
            rest = after.dropFirst(token.count)
        }
        return tokens
    }
}
