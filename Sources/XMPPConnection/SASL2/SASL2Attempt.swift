import XMPPStanzas

/// One SASL2 authentication as prepared before it is sent: the `<authenticate/>` element and
/// what finishing the exchange needs.
struct SASL2Attempt {
    /// The choices a pipelined log-in must find again in the features that arrive.
    struct Plan: Equatable {
        /// The mechanism name.
        var mechanism: String
        /// SCRAM's gs2 channel binding (nil for FAST, whose name carries it, and PLAIN).
        var channelBinding: ChannelBinding?
        /// The FAST mechanism a token is asked for.
        var requestedToken: String?
    }

    var authenticate: SASL2Authenticate
    var scramClient: SCRAMClient?
    /// A token log-in: its mechanism, the token and the channel-binding data.
    var fast: (FASTMechanism, String, [UInt8])?
    var useBind2: Bool
    var requested: FASTMechanism?
    var plan: Plan
}
