import Glibc

/// A non-blocking TCP socket; readiness comes from poll() with a deadline, never a blocking read.
final class Socket {
    let fd: Int32
    private(set) var isClosed = false

    private init(fd: Int32) { self.fd = fd }

    deinit { close() }

    /// A TCP connect that never waits: the addresses of a host tried in turn, each started
    /// non-blocking; the caller waits for `POLLOUT` on the socket `next()` gave, then calls
    /// `finish`.
    struct Connecting {
        private struct Address {
            var family: Int32, type: Int32, proto: Int32
            var bytes: [UInt8]
        }
        let host: String
        let port: Int
        private var addresses: [Address] = []
        private var tried = 0
        private var lastError = "no address"

        /// Resolves `host` (getaddrinfo: a name, or an address as text).
        init(host: String, port: Int) throws(ConnectionError) {
            self.host = host
            self.port = port
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_flags = AI_ADDRCONFIG
            var list: UnsafeMutablePointer<addrinfo>?
            let rc = getaddrinfo(host, String(port), &hints, &list)
            guard rc == 0, list != nil else {
                throw .dnsFailed(host: host, reason: String(cString: gai_strerror(rc)))
            }
            defer { freeaddrinfo(list) }
            var cursor = list
            while let ai = cursor {
                cursor = ai.pointee.ai_next
                guard let address = ai.pointee.ai_addr else { continue }
                let bytes = UnsafeRawBufferPointer(start: address, count: Int(ai.pointee.ai_addrlen))
                addresses.append(Address(family: ai.pointee.ai_family, type: ai.pointee.ai_socktype,
                                         proto: ai.pointee.ai_protocol, bytes: Array(bytes)))
            }
        }

        /// Starts connecting to the next address: a socket to wait on for `POLLOUT`, or nil when
        /// that address failed at once (call again). Throws once every address failed.
        mutating func next() throws(ConnectionError) -> Socket? {
            guard tried < addresses.count else { throw .connectFailed(host: host, port: port, reason: lastError) }
            let address = addresses[tried]
            tried += 1
            let fd = socket(address.family, address.type | Int32(SOCK_CLOEXEC.rawValue), address.proto)
            guard fd >= 0 else { lastError = errnoText(); return nil }
            let sock = Socket(fd: fd)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let rc = address.bytes.withUnsafeBytes { raw in
                Glibc.connect(fd, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            guard rc == 0 || errno == EINPROGRESS else { lastError = errnoText(); return nil }
            return sock
        }

        /// `next` until an address did not fail at once.
        mutating func nextStarted() throws(ConnectionError) -> Socket {
            while true {
                if let socket = try next() { return socket }
            }
        }

        /// Whether `socket` (from `next`, now writable) is connected; false when its address
        /// refused (call `next` again).
        mutating func finish(_ socket: Socket) throws(ConnectionError) -> Bool {
            var soError: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(socket.fd, SOL_SOCKET, SO_ERROR, &soError, &len)
            if soError == 0 { return true }
            lastError = String(cString: strerror(soError))
            socket.close()
            return false
        }
    }

    /// Whether the socket is ready for `events` now (a poll that does not wait).
    func isReady(for events: Int16) -> Bool {
        var pfd = pollfd(fd: fd, events: events, revents: 0)
        return poll(&pfd, 1, 0) > 0
    }

    /// Waits until the socket is ready for `events`; false when the deadline passed first.
    func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws(ConnectionError) -> Bool {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { return false }
            let ms = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            var pfd = pollfd(fd: fd, events: events, revents: 0)
            let rc = poll(&pfd, 1, ms)
            if rc < 0 {
                if errno == EINTR { continue }
                throw .io(errnoText())
            }
            if rc > 0 { return true }
        }
    }

    /// Reads what is available, waiting until `deadline`; returns an empty array at end of stream.
    func read(maxBytes: Int = 65536, until deadline: ContinuousClock.Instant) throws(ConnectionError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        while true {
            quickAck()
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, maxBytes) }
            if n > 0 { return Array(buffer[0..<n]) }
            if n == 0 { return [] }
            if errno == EINTR { continue }
            // A reset means the same as on a write: the server went away (it closed with our
            // bytes unread, as after <proceed/>), not some local I/O failure.
            if errno == ECONNRESET { throw .closedByPeer }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { throw .io(errnoText()) }
            guard try wait(for: Int16(POLLIN), until: deadline) else { throw .timedOut("waiting for the server") }
        }
    }

    /// Writes all of `bytes`, waiting for buffer space until `deadline`.
    func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(ConnectionError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                guard try wait(for: Int16(POLLOUT), until: deadline) else { throw .timedOut("sending to the server") }
                continue
            }
            if n < 0 && (errno == EPIPE || errno == ECONNRESET) { throw .closedByPeer }
            throw .io(errnoText())
        }
    }

    /// Acknowledges received data at once. Servers write a stream header and its features as two
    /// small segments; with Nagle on their side, our delayed ACK would hold the second one back
    /// for ~40 ms at every stream (re)start. The flag does not stick, so it is set before each read.
    private func quickAck() {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), Int32(TCP_QUICKACK), &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Closes the descriptor once.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(fd)
    }
}

/// The current errno as text.
func errnoText() -> String { String(cString: strerror(errno)) }
