/// XEP-0060 §7.1.5: what a publisher does when a publish that carried publish-options fails.
public enum PublishOptionsRecovery: Sendable, Equatable {
    /// `<conflict/>` (with `<precondition-not-met/>`): the node exists with another
    /// configuration. Configure the node as owner, then publish again with the options.
    case reconfigureNode
    /// The service does not understand publish-options (`feature-not-implemented`,
    /// `bad-request`, `not-acceptable`): publish again without them.
    case publishWithoutOptions
    /// Anything else (forbidden, service-unavailable, …) is the answer.
    case fail

    /// The recovery for the error a publish with options got.
    public init(after error: StanzaError) {
        switch error.condition {
        case .conflict: self = .reconfigureNode
        case .featureNotImplemented, .badRequest, .notAcceptable: self = .publishWithoutOptions
        default: self = .fail
        }
    }
}
