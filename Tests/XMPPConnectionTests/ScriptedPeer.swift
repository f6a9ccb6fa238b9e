import COpenSSL
import Foundation
import Glibc

/// A scripted XMPP "server" on 127.0.0.1 for hostile-peer tests: a thread accepts connections
/// one after another and plays the same script on each (fresh from `makeScript`), recording the
/// plaintext it received. Every wait has a deadline, so a broken client cannot hang the peer,
/// and `stop()` closes everything, so a hung client sees its connection go away.
final class ScriptedPeer: @unchecked Sendable {
    /// One step of a script.
    enum Step {
        /// Reads until the text received since the previous marker contains `marker`.
        case expect(String)
        /// Writes these bytes.
        case send([UInt8])
        /// Waits for `marker`, then writes what the closure makes of the text received up to it.
        case reply(to: String, (String) -> String)
        /// Runs the server side of a TLS handshake; later steps go through TLS.
        case startTLS(PeerTLSIdentity)
        /// Closes the TCP connection at once (FIN, no close_notify).
        case close
        /// Waits until the client sends something, leaves it unread and closes: the kernel answers
        /// with a reset (RST), as a server that crashed would.
        case resetWhenDataArrives
        /// Writes `chunk` again and again until the client hangs up.
        case flood(String)
        /// Writes `text` one byte every `interval` (a slowloris server), until the client hangs up.
        case trickle(String, every: Duration)
        /// Sends nothing more; waits until the client hangs up (or the peer is stopped).
        case stall

        /// Writes UTF-8 text.
        static func send(_ text: String) -> Step { .send(Array(text.utf8)) }
    }

    /// What one connection delivered to the peer.
    struct Transcript {
        /// Every plaintext byte the client sent (decrypted after STARTTLS).
        var received: [UInt8] = []
        /// The ciphertext-or-plaintext bytes as they crossed the wire, for "never sent" checks.
        var wire: [UInt8] = []
        /// How far the script got, and why it stopped when it stopped early.
        var stepsCompleted = 0
        var endedEarly: String?
        /// The received bytes as text.
        var text: String { String(decoding: received, as: UTF8.self) }
    }

    /// The port it listens on.
    let port: Int
    /// Longest a single connection may take before the peer gives up on it.
    let connectionDeadline: Duration
    private let listener: Int32
    private let makeScript: () -> [Step]
    private let lock = NSLock()
    private var transcripts: [Transcript] = []
    private var finishedConnections = 0
    private var stopping = false
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    /// Starts listening on an ephemeral port of 127.0.0.1.
    init(connectionDeadline: Duration = .seconds(30), script: @escaping () -> [Step]) throws {
        signal(SIGPIPE, SIG_IGN)  // OpenSSL writes with write(2), which would raise it on a closed socket.
        self.connectionDeadline = connectionDeadline
        self.makeScript = script
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw PeerError.setup("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, len) == 0 && listen(fd, 8) == 0 && getsockname(fd, sa, &len) == 0
            }
        }
        guard bound else { Glibc.close(fd); throw PeerError.setup("bind/listen: \(String(cString: strerror(errno)))") }
        listener = fd
        port = Int(UInt16(bigEndian: addr.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "ScriptedPeer:\(port)"
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting, ends the current connection and waits (briefly) for the thread.
    func stop() {
        lock.lock()
        let first = !stopping
        stopping = true
        lock.unlock()
        if first { _ = done.wait(timeout: .now() + 5) }
    }

    /// The transcript of connection `index` (0-based) once its script has finished, waiting up to `timeout`.
    func transcript(_ index: Int, timeout: Duration = .seconds(10)) -> Transcript? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            lock.lock()
            let ready = finishedConnections > index
            let t = ready ? transcripts[index] : nil
            lock.unlock()
            if let t { return t }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    private func acceptLoop() {
        defer {
            Glibc.close(listener)
            done.signal()
        }
        while !isStopping {
            var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            lock.lock()
            transcripts.append(Transcript())
            let index = transcripts.count - 1
            lock.unlock()
            let channel = PeerChannel(fd: fd, deadline: .now + connectionDeadline, isStopping: { [unowned self] in isStopping })
            var completed = 0
            var endedEarly: String?
            do {
                for step in makeScript() {
                    try run(step, on: channel)
                    completed += 1
                }
                try channel.drainUntilClosed()
            } catch {
                endedEarly = "\(error)"
            }
            channel.close()
            lock.lock()
            transcripts[index].received = channel.received
            transcripts[index].wire = channel.wire
            transcripts[index].stepsCompleted = completed
            transcripts[index].endedEarly = endedEarly
            finishedConnections += 1
            lock.unlock()
        }
    }

    private func run(_ step: Step, on channel: PeerChannel) throws {
        switch step {
        case .expect(let marker):
            _ = try channel.read(until: marker)
        case .send(let bytes):
            try channel.write(bytes)
        case .reply(let marker, let answer):
            try channel.write(Array(answer(try channel.read(until: marker)).utf8))
        case .startTLS(let identity):
            try channel.acceptTLS(identity)
        case .close:
            channel.close()
            throw PeerError.scriptClosed
        case .resetWhenDataArrives:
            try channel.waitReadable()
            channel.close()
            throw PeerError.scriptClosed
        case .flood(let chunk):
            let bytes = Array(chunk.utf8)
            while true { try channel.write(bytes) }
        case .trickle(let text, let interval):
            for byte in text.utf8 {
                try channel.write([byte])
                Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
            }
        case .stall:
            break
        }
    }
}

/// Why a peer's script stopped.
enum PeerError: Error, CustomStringConvertible {
    case setup(String)
    case clientClosed
    case deadline(String)
    case io(String)
    case tls(String)
    case stopped
    case scriptClosed

    var description: String {
        switch self {
        case .setup(let s): return "setup: \(s)"
        case .clientClosed: return "client closed the connection"
        case .deadline(let s): return "peer deadline passed while \(s)"
        case .io(let s): return "I/O: \(s)"
        case .tls(let s): return "TLS: \(s)"
        case .stopped: return "peer stopped"
        case .scriptClosed: return "script closed the connection"
        }
    }
}

/// A server certificate and key for the peer's TLS, as an OpenSSL server context.
final class PeerTLSIdentity: @unchecked Sendable {
    let ctx: OpaquePointer

    init(certificate: String, key: String) throws {
        guard let ctx = SSL_CTX_new(TLS_server_method()) else { throw PeerError.setup("SSL_CTX_new") }
        self.ctx = ctx
        guard SSL_CTX_use_certificate_chain_file(ctx, certificate) == 1,
              SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) == 1
        else { throw PeerError.setup("cannot load \(certificate) / \(key)") }
    }

    deinit { SSL_CTX_free(ctx) }
}
