import XMLTree
import XMPPStanzas

/// Which way a traced piece of XML travelled.
public enum TraceDirection: String, Sendable { case sent = "SEND", received = "RECV" }

/// Receives traced XML (`--trace`); the command decides where it goes.
public typealias TraceSink = (TraceDirection, String) -> Void

/// Hides credentials before XML reaches a trace: SASL and SASL2 payloads, FAST tokens,
/// registration passwords, and password fields of data forms.
public enum TraceRedaction {
    static let redacted = "[redacted]"
    static let saslPayloads: Set<String> = ["auth", "challenge", "response", "success"]
    static let sasl2Payloads: Set<String> = ["initial-response", "challenge", "response", "additional-data"]

    /// A copy of `element` that is safe to print.
    public static func redact(_ element: XMLElement) -> XMLElement {
        if element.namespace == Namespace.sasl && saslPayloads.contains(element.name) {
            return XMLElement(element.name, namespace: element.namespace, attributes: element.attributes,
                              children: element.children.map { node in
                                  if case .text(let t) = node, !t.isEmpty { return .text(redacted) }
                                  if case .element(let e) = node { return .element(redact(e)) }
                                  return node
                              })
        }
        if element.namespace == Namespace.sasl2 && sasl2Payloads.contains(element.name) {
            return XMLElement(element.name, namespace: element.namespace, attributes: element.attributes,
                              children: element.text.isEmpty ? [] : [.text(redacted)])
        }
        var copy = element
        if element.namespace == Namespace.fast && element.name == "token" && element[attribute: "token"] != nil {
            copy[attribute: "token"] = redacted
        }
        let isSecret = (element.namespace == Namespace.register && (element.name == "password" || element.name == "old_password"))
        if isSecret { return XMLElement(element.name, namespace: element.namespace, children: [.text(redacted)]) }
        let isSecretField = element.namespace == Namespace.dataForms && element.name == "field"
            && (element[attribute: "var"]?.lowercased().contains("password") ?? false)
        copy.children = element.children.map { node in
            guard case .element(let child) = node else { return node }
            if isSecretField && child.name == "value" {
                return .element(XMLElement("value", namespace: child.namespace, children: [.text(redacted)]))
            }
            return .element(redact(child))
        }
        return copy
    }
}
