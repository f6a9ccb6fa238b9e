import CryptoPrimitives
import TextFormats

/// The TLS version class that decides which channel bindings exist (RFC 5929, RFC 9266).
public enum TLSVersionTag: String, Sendable, Codable {
    /// TLS 1.2 or earlier: tls-unique is defined.
    case tls12
    /// TLS 1.3: tls-unique is undefined, tls-exporter is the default.
    case tls13
}

/// What channel-binding data the TLS layer of this connection can produce.
public struct TLSBindingInfo: Sendable, Equatable {
    /// The negotiated TLS version class.
    public var version: TLSVersionTag
    /// tls-unique data (TLS ≤ 1.2 only; ignored on TLS 1.3).
    public var tlsUnique: [UInt8]?
    /// tls-exporter data (TLS 1.3; on TLS 1.2 only with the extended master secret).
    public var tlsExporter: [UInt8]?
    /// tls-server-end-point data, used only when the server lists that type (XEP-0440).
    public var tlsServerEndPoint: [UInt8]?

    /// Binding information from its parts.
    public init(
        version: TLSVersionTag, tlsUnique: [UInt8]? = nil, tlsExporter: [UInt8]? = nil,
        tlsServerEndPoint: [UInt8]? = nil
    ) {
        self.version = version
        self.tlsUnique = tlsUnique
        self.tlsExporter = tlsExporter
        self.tlsServerEndPoint = tlsServerEndPoint
    }

    /// The bindings usable on this connection, best first.
    var available: [(ChannelBindingType, [UInt8])] {
        var result: [(ChannelBindingType, [UInt8])] = []
        switch version {
        case .tls13:
            if let data = tlsExporter { result.append((.tlsExporter, data)) }
        case .tls12:
            if let data = tlsUnique { result.append((.tlsUnique, data)) }
            if let data = tlsExporter { result.append((.tlsExporter, data)) }
        }
        if let data = tlsServerEndPoint { result.append((.tlsServerEndPoint, data)) }
        return result
    }
}

/// The mechanism picked for authentication.
public enum SelectedMechanism: Sendable, Equatable {
    /// SCRAM; the binding type is non-nil exactly for -PLUS.
    case scram(SCRAMMechanism, ChannelBindingType?)
    /// PLAIN (RFC 4616), over TLS only.
    case plain

    /// The mechanism name to put in `<auth mechanism=…>`.
    public var name: String {
        switch self {
        case .scram(let mechanism, _): mechanism.name
        case .plain: "PLAIN"
        }
    }
}

/// A selected mechanism together with the channel binding to hand to `SCRAMClient`.
public struct MechanismChoice: Sendable, Equatable {
    /// The mechanism.
    public var mechanism: SelectedMechanism
    /// The gs2 channel-binding state for SCRAM (`.unsupported` for PLAIN).
    public var channelBinding: ChannelBinding

    /// A choice from its parts.
    public init(mechanism: SelectedMechanism, channelBinding: ChannelBinding) {
        self.mechanism = mechanism
        self.channelBinding = channelBinding
    }
}

/// Picks the mechanism to use from what the server offers (ARCHITECTURE.md §4, RFC 5802 §6).
public enum SASLSelection {
    /// Picks a mechanism; see `choice(…)` for the rules.
    public static func choose(
        offered: [String], tls: TLSBindingInfo?, cachedKeysHash: HashFunction?, usedSCRAMBefore: Bool,
        allowPlain: Bool, requireSCRAM: Bool = false, serverCBTypes: [ChannelBindingType]? = nil
    ) throws(SASLError) -> SelectedMechanism {
        try choice(
            offered: offered, tls: tls, cachedKeysHash: cachedKeysHash, usedSCRAMBefore: usedSCRAMBefore,
            allowPlain: allowPlain, requireSCRAM: requireSCRAM, serverCBTypes: serverCBTypes
        ).mechanism
    }

    /// Picks a mechanism and the channel binding to announce.
    ///
    /// - SCRAM-SHA-512, then -256, then -1; for each, -PLUS when the server offers it and a binding
    ///   type both sides support exists. The type comes from `serverCBTypes` (XEP-0440) when given,
    ///   in the order tls-exporter (TLS 1.3), tls-unique (TLS ≤ 1.2), tls-exporter (TLS 1.2, if the
    ///   TLS layer gave data), tls-server-end-point. Without XEP-0440 the only type assumed is
    ///   tls-unique on TLS ≤ 1.2 (RFC 5802's default); on TLS 1.3 -PLUS is not used, because servers
    ///   that do tls-exporter advertise XEP-0440 and older ones (ejabberd 23.01) offer -PLUS on TLS 1.3
    ///   with only tls-unique, so guessing tls-exporter would fail authentication.
    /// - gs2 flag without -PLUS: `y` when the client could bind but the server offers no -PLUS at all;
    ///   `n` when it cannot bind, or the server offers -PLUS and it is not used (RFC 5802 §6).
    /// - `cachedKeysHash`: only SCRAM with that hash, never PLAIN.
    /// - PLAIN only when no SCRAM fits, `allowPlain`, on TLS, and not `usedSCRAMBefore` (downgrade).
    /// - `requireSCRAM`: the caller needs SCRAM keys (to cache a session), so no PLAIN either;
    ///   deciding it here means the password is never sent to find that out.
    public static func choice(
        offered: [String], tls: TLSBindingInfo?, cachedKeysHash: HashFunction?, usedSCRAMBefore: Bool,
        allowPlain: Bool, requireSCRAM: Bool = false, serverCBTypes: [ChannelBindingType]? = nil
    ) throws(SASLError) -> MechanismChoice {
        let names = Set(offered.map { $0.trimmingWhitespace() })
        let offeredSCRAM = names.compactMap { SCRAMMechanism(name: $0) }
        let serverOffersPlus = offeredSCRAM.contains { $0.plus }
        let binding = usableBinding(tls: tls, serverCBTypes: serverCBTypes)
        let canBind = !(tls?.available.isEmpty ?? true)

        let hashes: [HashFunction] = cachedKeysHash.map { [$0] } ?? [.sha512, .sha256, .sha1]
        for hash in hashes {
            let plus = SCRAMMechanism(hash: hash, plus: true)
            if let (type, data) = binding, names.contains(plus.name) {
                return MechanismChoice(mechanism: .scram(plus, type), channelBinding: .bound(type, data))
            }
            let plain = SCRAMMechanism(hash: hash, plus: false)
            if names.contains(plain.name) {
                let flag: ChannelBinding = canBind && !serverOffersPlus ? .supportedButNotUsed : .unsupported
                return MechanismChoice(mechanism: .scram(plain, nil), channelBinding: flag)
            }
        }
        if let cachedKeysHash { throw .cachedKeysUnusable(cachedKeysHash, offered: offered) }
        if requireSCRAM { throw .scramRequired(offered: offered) }
        guard names.contains("PLAIN"), allowPlain else { throw .noAcceptableMechanism(offered: offered) }
        guard tls != nil else { throw .plainRequiresTLS }
        guard !usedSCRAMBefore else { throw .plainRefusedAfterSCRAM }
        return MechanismChoice(mechanism: .plain, channelBinding: .unsupported)
    }

    /// The binding type and data to use with a -PLUS mechanism, if any.
    static func usableBinding(
        tls: TLSBindingInfo?, serverCBTypes: [ChannelBindingType]?
    ) -> (ChannelBindingType, [UInt8])? {
        guard let tls else { return nil }
        let available = tls.available
        guard let serverCBTypes else {
            // No XEP-0440: only RFC 5802's default, and only where it is defined.
            guard tls.version == .tls12 else { return nil }
            return available.first { $0.0 == .tlsUnique }
        }
        return available.first { serverCBTypes.contains($0.0) }
    }
}
