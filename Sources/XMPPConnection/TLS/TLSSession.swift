import CryptoPrimitives
import COpenSSL

/// One TLS client session on memory BIOs: ciphertext goes in and out through buffers the
/// transport owns, so TLS never touches the socket and STARTTLS is "insert this layer here".
final class TLSSession {
    private let ssl: OpaquePointer
    private let networkIn: OpaquePointer   // ciphertext from the server, read by OpenSSL
    private let networkOut: OpaquePointer  // ciphertext for the server, written by OpenSSL
    private let context: TLSContext
    /// The name the certificate must be valid for: the JID's domain, whatever host we dialled.
    let referenceName: String

    init(context: TLSContext, referenceName: String, directTLS: Bool) throws(ConnectionError) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.ctx),
              let rbio = BIO_new(BIO_s_mem()), let wbio = BIO_new(BIO_s_mem())
        else { throw .tls(TLSContext.lastError()) }
        self.ssl = ssl
        self.networkIn = rbio
        self.networkOut = wbio
        self.context = context
        self.referenceName = referenceName
        SSL_set_bio(ssl, rbio, wbio)
        SSL_set_connect_state(ssl)
        let reference = ReferenceName(referenceName)
        if case .dnsName(let name) = reference { _ = xt_SSL_set_tlsext_host_name(ssl, name) }
        if directTLS {
            // XEP-0368: direct TLS announces the protocol by ALPN.
            let alpn: [UInt8] = [11] + Array("xmpp-client".utf8)
            _ = SSL_set_alpn_protos(ssl, alpn, UInt32(alpn.count))
        }
        let settings = context.settings
        let verifyChain = !settings.insecure && !(settings.pin != nil && settings.caFile == nil)
        if verifyChain {
            try Self.requireName(reference, on: ssl)
            SSL_set_verify(ssl, SSL_VERIFY_PEER, nil)
        } else {
            SSL_set_verify(ssl, SSL_VERIFY_NONE, nil)
        }
    }

    /// Makes the chain check also check the name; a name OpenSSL will not take is fatal, since
    /// verifying without it would accept any certificate from a trusted CA.
    private static func requireName(_ reference: ReferenceName, on ssl: OpaquePointer) throws(ConnectionError) {
        let accepted: Bool
        switch reference {
        case .ipAddress(let address):
            accepted = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), address) == 1
        case .dnsName(let name):
            // RFC 6125 §6.4.4: the name is looked for in subjectAltName only; a certificate with
            // a CN and no DNS name there is refused, as every current browser refuses it.
            SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT))
            accepted = !name.utf8.contains(0) && SSL_set1_host(ssl, name) == 1
        }
        guard accepted else {
            let name = switch reference { case .ipAddress(let a): a; case .dnsName(let n): n }
            throw .referenceNameUnusable(name)
        }
    }

    deinit { SSL_free(ssl) }  // frees both BIOs too

    /// Steps the handshake; true when it is complete.
    func handshakeStep() throws(ConnectionError) -> Bool {
        ERR_clear_error()
        let rc = SSL_do_handshake(ssl)
        if rc == 1 {
            try checkPin()
            return true
        }
        let err = SSL_get_error(ssl, rc)
        if err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE { return false }
        let verify = SSL_get_verify_result(ssl)
        if verify != X509_V_OK {
            let reason = String(cString: X509_verify_cert_error_string(verify))
            throw .certificateRejected("\(reason) (expected a certificate for \(referenceName))")
        }
        throw .tls(TLSContext.lastError())
    }

    /// Feeds ciphertext received from the server.
    func receiveCiphertext(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        _ = bytes.withUnsafeBytes { BIO_write(networkIn, $0.baseAddress, Int32($0.count)) }
    }

    /// Takes ciphertext waiting to be sent to the server.
    func takeCiphertext() -> [UInt8] {
        let pending = Int(BIO_ctrl_pending(networkOut))
        guard pending > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: pending)
        let n = out.withUnsafeMutableBytes { BIO_read(networkOut, $0.baseAddress, Int32(pending)) }
        return n > 0 ? Array(out.prefix(Int(n))) : []
    }

    /// Encrypts plaintext into the outgoing buffer.
    func writePlaintext(_ bytes: [UInt8]) throws(ConnectionError) {
        var offset = 0
        while offset < bytes.count {
            ERR_clear_error()
            let n = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + offset, Int32(bytes.count - offset)) }
            guard n > 0 else { throw .tls(TLSContext.lastError()) }
            offset += Int(n)
        }
    }

    /// Decrypts whatever plaintext is available; empty when more ciphertext is needed.
    /// Throws `closedByPeer` on a TLS close_notify.
    func readPlaintext() throws(ConnectionError) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            ERR_clear_error()
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 { out += buffer.prefix(Int(n)); continue }
            let err = SSL_get_error(ssl, n)
            if err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE { return out }
            if err == SSL_ERROR_ZERO_RETURN {
                if out.isEmpty { throw .closedByPeer }
                return out
            }
            throw .tls(TLSContext.lastError())
        }
    }

    /// Sends close_notify into the outgoing buffer.
    func shutdown() { _ = SSL_shutdown(ssl) }

    /// The negotiated protocol version.
    var version: TLSVersion {
        switch SSL_version(ssl) {
        case TLS1_3_VERSION: return .tls13
        case TLS1_2_VERSION: return .tls12
        default: return .other
        }
    }

    /// RFC 5929 tls-unique: the first Finished message (the client's, without resumption).
    /// Defined for TLS ≤ 1.2 only.
    var tlsUnique: [UInt8]? {
        guard version == .tls12 else { return nil }
        var buf = [UInt8](repeating: 0, count: 128)
        let n = buf.withUnsafeMutableBytes { SSL_get_finished(ssl, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buf.prefix(min(n, buf.count))) : nil
    }

    /// RFC 9266 tls-exporter: 32 bytes of keying material, label "EXPORTER-Channel-Binding".
    /// Defined for TLS 1.3.
    var tlsExporter: [UInt8]? {
        guard version == .tls13 else { return nil }
        var out = [UInt8](repeating: 0, count: 32)
        let label = Array("EXPORTER-Channel-Binding".utf8)
        let rc = out.withUnsafeMutableBytes { o in
            label.withUnsafeBytes { l in
                SSL_export_keying_material(ssl, o.baseAddress, 32, l.baseAddress, l.count, nil, 0, 0)
            }
        }
        return rc == 1 ? out : nil
    }

    /// The server's public-key pin, `sha256/BASE64` of its DER SubjectPublicKeyInfo.
    var peerPin: String? {
        guard let cert = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(cert) }
        guard let key = X509_get0_pubkey(cert) else { return nil }
        var der: UnsafeMutablePointer<UInt8>?
        let len = i2d_PUBKEY(key, &der)
        guard len > 0, let der else { return nil }
        defer { CRYPTO_free(der, #file, #line) }
        let digest = Crypto.hash(.sha256, UnsafeBufferPointer(start: der, count: Int(len)))
        return "sha256/" + Base64.encode(digest)
    }

    private func checkPin() throws(ConnectionError) {
        guard let expected = context.settings.pin, !context.settings.insecure else { return }
        let actual = peerPin ?? "none"
        guard actual == expected else { throw .pinMismatch(expected: expected, actual: actual) }
    }
}
