import CryptoPrimitives
import Glibc

/// The batch's input (a file, or `-` for standard input) read a block at a time, with the
/// SHA-256 of every byte read (the batch's journal identity) computed as it goes, so no reader
/// needs the whole input in memory. Refuses more than `limit` bytes.
public final class BatchInputStream {
    /// The input's name in errors ("standard input" or the path).
    public let name: String
    private let path: String
    private let limit: Int
    private var descriptor: Int32
    private var memory: [UInt8]?
    private var received = 0
    private var pending: [UInt8] = []
    private var ended = false
    private let digest = StreamingDigest(.sha256)
    private var sha256: [UInt8]?

    /// Opens `path` (`-`: standard input), refusing a file larger than `limit`.
    public init(path: String, limit: Int) throws(BatchError) {
        self.path = path
        self.limit = limit
        name = path == "-" ? "standard input" : path
        if path == "-" {
            descriptor = 0
            return
        }
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .unreadableInput("\(path): no such file") }
            throw .unreadableInput("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard fstat(descriptor, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = close(descriptor)
            throw .unreadableInput("cannot read \(path): \(reason)")
        }
        guard Int(st.st_size) <= limit else {
            _ = close(descriptor)
            throw .unreadableInput("\(path): larger than \(limit >> 20) MiB")
        }
    }

    /// An input already in memory (tests, and callers that hold it anyway), named `name`.
    public init(bytes: [UInt8], name: String) {
        self.name = name
        path = name
        limit = Int.max
        descriptor = -1
        memory = bytes
    }

    deinit { if descriptor > 0 { _ = close(descriptor) } }

    /// Reads until `enough` says the bytes read so far (and whether the input ended) tell what
    /// the caller needs (the format: `BatchInputFormat.detect`); those bytes, which `read`
    /// then gives again.
    public func peek(until enough: ([UInt8], _ ended: Bool) -> Bool) throws(BatchError) -> [UInt8] {
        while !ended && !enough(pending, false) { pending += try block(maximum: 1 << 16) }
        return pending
    }

    /// The next block of at most `maximum` bytes (or what `peek` read); empty once the input has ended.
    public func read(maximum: Int = 1 << 16) throws(BatchError) -> [UInt8] {
        if !pending.isEmpty {
            defer { pending = [] }
            return pending
        }
        return try block(maximum: maximum)
    }

    private func block(maximum: Int) throws(BatchError) -> [UInt8] {
        if ended { return [] }
        if descriptor < 0 {
            // In memory: all of it at once, then the end.
            let all = memory ?? []
            memory = nil
            ended = all.isEmpty
            digest.update(all)
            return all
        }
        var buffer = [UInt8](repeating: 0, count: max(1, maximum))
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                let what = path == "-" ? "standard input" : path
                throw .unreadableInput("cannot read \(what): \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                ended = true
                return []
            }
            received += n
            if received > limit { throw .unreadableInput("\(name): larger than \(limit >> 20) MiB") }
            buffer.removeSubrange(n...)
            digest.update(buffer)
            return buffer
        }
    }

    /// Every byte left, at once (an LDIF is read whole).
    public func readAll() throws(BatchError) -> [UInt8] {
        var out: [UInt8] = []
        while true {
            let block = try read()
            if block.isEmpty { return out }
            out += block
        }
    }

    /// The SHA-256 of the whole input; only once it has been read to its end.
    public var inputSHA256: [UInt8] {
        precondition(ended, "the input's digest is known once it has been read to the end")
        if let sha256 { return sha256 }
        let value = digest.finish()
        sha256 = value
        return value
    }
}
