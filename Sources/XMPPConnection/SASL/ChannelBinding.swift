import CryptoPrimitives

/// A TLS channel-binding type (RFC 5929, RFC 9266) as named in SCRAM's gs2 header and XEP-0440.
public enum ChannelBindingType: String, Sendable, Codable, CaseIterable {
    /// The first Finished message of the latest handshake; TLS ≤ 1.2 only (RFC 5929 §3).
    case tlsUnique = "tls-unique"
    /// 32 bytes exported with label `EXPORTER-Channel-Binding`; TLS 1.3 (RFC 9266).
    case tlsExporter = "tls-exporter"
    /// A hash of the server's certificate (RFC 5929 §4).
    case tlsServerEndPoint = "tls-server-end-point"
}

/// What the client knows about channel binding on this connection (RFC 5802 §6, gs2 header).
public enum ChannelBinding: Sendable, Equatable {
    /// gs2 `n,,`: the client does not support channel binding here (no TLS), or it does but the
    /// server offered -PLUS and the client chose not to use it.
    case unsupported
    /// gs2 `y,,`: the client could bind, but the server did not offer any -PLUS mechanism.
    case supportedButNotUsed
    /// gs2 `p=<type>,,`: bound to this type; the data is appended to the header in `c=`.
    case bound(ChannelBindingType, [UInt8])

    /// The gs2 header (RFC 5802 §7) without authorization identity, e.g. `p=tls-exporter,,`.
    public var gs2Header: String {
        switch self {
        case .unsupported: "n,,"
        case .supportedButNotUsed: "y,,"
        case .bound(let type, _): "p=\(type.rawValue),,"
        }
    }

    /// The `c=` value of client-final: base64 of the gs2 header followed by the binding data.
    public var channelBindingAttribute: String {
        var bytes = Array(gs2Header.utf8)
        if case .bound(_, let data) = self { bytes += data }
        return Base64.encode(bytes)
    }
}
