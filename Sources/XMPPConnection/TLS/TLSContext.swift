import COpenSSL

/// One OpenSSL context for the whole process (building one per connection cost a peer 6× the
/// server's CPU). Holds the trust store; per-connection identity checks live in `TLSSession`.
public final class TLSContext: @unchecked Sendable {
    // SSL_CTX is internally reference-counted and thread-safe once configured; nothing here
    // mutates it after init, hence @unchecked Sendable.
    let ctx: OpaquePointer
    /// The settings this context was built with.
    public let settings: TLSSettings

    /// Builds a client context: TLS ≥ 1.2, system trust store or `settings.caFile`.
    public init(settings: TLSSettings, maxVersion: TLSVersion? = nil) throws(ConnectionError) {
        guard let ctx = SSL_CTX_new(TLS_client_method()) else { throw .tls(TLSContext.lastError()) }
        self.ctx = ctx
        self.settings = settings
        _ = xt_SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION)
        if maxVersion == .tls12 { _ = xt_SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION) }
        _ = xt_SSL_CTX_set_mode(ctx, Int(SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE))
        if let caFile = settings.caFile {
            guard SSL_CTX_load_verify_locations(ctx, caFile, nil) == 1 else {
                throw .certificateRejected("cannot load CA file \(caFile): \(TLSContext.lastError())")
            }
        } else {
            SSL_CTX_set_default_verify_paths(ctx)
        }
    }

    deinit { SSL_CTX_free(ctx) }

    /// The oldest queued OpenSSL error as text, clearing the queue.
    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "unknown error" }
        var buf = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buf, buf.count)
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
