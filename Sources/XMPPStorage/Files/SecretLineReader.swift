import Glibc

/// Reads a private file of the user's (as `SecureFile.read` with `trusted` and `requirePrivate`:
/// a regular file, not reached through a symlink, owned by the user, readable by nobody else)
/// one line at a time, a block at a time, so a file of a million records is never held whole.
/// A line longer than `maxLineBytes` is an error, not a reason to hold the file.
public final class SecretLineReader {
    public let path: String
    private let fd: Int32
    private let maxLineBytes: Int
    private var block: [UInt8] = []
    private var start = 0
    private var ended = false
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// nil when the file does not exist.
    public init?(_ path: String, maxLineBytes: Int = 16 << 20) throws(StorageError) {
        guard let fd = try FileTrust.openOwned(path) else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let reason = errnoText()
            _ = close(fd)
            throw .io(path: path, reason: reason)
        }
        guard st.st_mode & 0o077 == 0 else {
            _ = close(fd)
            throw .insecurePermissions(path: path, mode: st.st_mode & 0o777)
        }
        self.path = path
        self.fd = fd
        self.maxLineBytes = maxLineBytes
    }

    deinit { _ = close(fd) }

    /// The next line without its line feed; nil at the end (a last line without one counts).
    /// `limit`: a smaller limit than the reader's for this line (a header, say).
    public func next(limit: Int? = nil) throws(StorageError) -> [UInt8]? {
        let maxLineBytes = min(limit ?? self.maxLineBytes, self.maxLineBytes)
        var searchFrom = start
        while true {
            if let end = block[searchFrom...].firstIndex(of: 0x0A) {
                let line = Array(block[start..<end])
                start = end + 1
                return line
            }
            if ended {
                guard start < block.count else { return nil }
                let line = Array(block[start...])
                start = block.count
                return line
            }
            if block.count - start > maxLineBytes {
                throw .corrupt(path: path, reason: "a line longer than \(maxLineBytes) bytes")
            }
            block.removeFirst(start)
            start = 0
            searchFrom = block.count
            try fill()
        }
    }

    private func fill() throws(StorageError) {
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .io(path: path, reason: errnoText()) }
            if n == 0 { ended = true } else { block.append(contentsOf: chunk.prefix(n)) }
            return
        }
    }
}
