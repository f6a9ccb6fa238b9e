import COpenSSL
import Foundation
import Glibc

/// The scripted peer's side of one accepted connection: a non-blocking socket, polled in short
/// slices so the peer notices `stop()` and its own deadline; OpenSSL on the same descriptor
/// once the script starts TLS.
final class PeerChannel {
    private var fd: Int32
    private var ssl: OpaquePointer?
    private let deadline: ContinuousClock.Instant
    private let isStopping: () -> Bool
    /// Plaintext received so far (decrypted after TLS).
    private(set) var received: [UInt8] = []
    /// Raw bytes as they arrived on the socket before TLS (TLS records are not copied here).
    private(set) var wire: [UInt8] = []
    /// Received text not yet consumed by a marker.
    private var unconsumed: [UInt8] = []

    init(fd: Int32, deadline: ContinuousClock.Instant, isStopping: @escaping () -> Bool) {
        self.fd = fd
        self.deadline = deadline
        self.isStopping = isStopping
    }

    deinit { close() }

    /// Reads until the unconsumed text contains `marker`; returns the text up to and including it.
    func read(until marker: String) throws -> String {
        let needle = Array(marker.utf8)
        while true {
            if let range = unconsumed.firstRange(of: needle) {
                let text = String(decoding: unconsumed[..<range.upperBound], as: UTF8.self)
                unconsumed.removeFirst(range.upperBound)
                return text
            }
            let bytes = try readSome(waitingFor: "'\(marker)'")
            unconsumed += bytes
        }
    }

    /// Reads and records everything until the client closes (or the peer gives up).
    func drainUntilClosed() throws {
        while true { _ = try readSome(waitingFor: "the client to hang up") }
    }

    /// Waits until bytes are ready to read, without reading them.
    func waitReadable() throws {
        try waitFor(Int16(POLLIN), "data to arrive")
    }

    /// Writes all of `bytes` (through TLS once it is on).
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            if let ssl {
                ERR_clear_error()
                let n = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + offset, Int32(bytes.count - offset)) }
                if n > 0 { offset += Int(n); continue }
                try waitForTLS(SSL_get_error(ssl, n), "writing")
            } else {
                let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
                if n > 0 { offset += n; continue }
                if n < 0 && (errno == EAGAIN || errno == EINTR) { try waitFor(Int16(POLLOUT), "writing"); continue }
                throw PeerError.clientClosed
            }
        }
    }

    /// Runs the server side of a TLS handshake on the socket.
    func acceptTLS(_ identity: PeerTLSIdentity) throws {
        guard let ssl = SSL_new(identity.ctx) else { throw PeerError.tls("SSL_new") }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        unconsumed.removeAll()
        while true {
            ERR_clear_error()
            let rc = SSL_accept(ssl)
            if rc == 1 { return }
            try waitForTLS(SSL_get_error(ssl, rc), "in the TLS handshake")
        }
    }

    /// Closes the socket (idempotent); no close_notify.
    func close() {
        if let ssl { SSL_free(ssl); self.ssl = nil }
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    private func readSome(waitingFor what: String) throws -> [UInt8] {
        guard fd >= 0 else { throw PeerError.clientClosed }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let ssl {
                ERR_clear_error()
                let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
                if n > 0 {
                    received += buffer[0..<Int(n)]
                    return Array(buffer[0..<Int(n)])
                }
                let err = SSL_get_error(ssl, n)
                if err == SSL_ERROR_ZERO_RETURN { throw PeerError.clientClosed }
                try waitForTLS(err, "waiting for \(what)")
            } else {
                let n = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    received += buffer[0..<n]
                    wire += buffer[0..<n]
                    return Array(buffer[0..<n])
                }
                if n == 0 { throw PeerError.clientClosed }
                guard errno == EAGAIN || errno == EINTR else { throw PeerError.io(String(cString: strerror(errno))) }
                try waitFor(Int16(POLLIN), "waiting for \(what)")
            }
        }
    }

    /// Waits as OpenSSL asks, or throws what its error means.
    private func waitForTLS(_ err: Int32, _ what: String) throws {
        switch err {
        case SSL_ERROR_WANT_READ: try waitFor(Int16(POLLIN), what)
        case SSL_ERROR_WANT_WRITE: try waitFor(Int16(POLLOUT), what)
        case SSL_ERROR_ZERO_RETURN: throw PeerError.clientClosed
        case SSL_ERROR_SYSCALL:
            throw errno == 0 || errno == EPIPE || errno == ECONNRESET ? PeerError.clientClosed : PeerError.io(String(cString: strerror(errno)))
        default:
            let code = ERR_get_error()
            var buf = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buf, buf.count)
            throw PeerError.tls(String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// Polls in 50 ms slices until ready, the peer stops, or its deadline passes.
    private func waitFor(_ events: Int16, _ what: String) throws {
        while true {
            if isStopping() { throw PeerError.stopped }
            if ContinuousClock.now >= deadline { throw PeerError.deadline(what) }
            var pfd = pollfd(fd: fd, events: events, revents: 0)
            let rc = poll(&pfd, 1, 50)
            if rc > 0 { return }
            if rc < 0 && errno != EINTR { throw PeerError.io(String(cString: strerror(errno))) }
        }
    }
}
