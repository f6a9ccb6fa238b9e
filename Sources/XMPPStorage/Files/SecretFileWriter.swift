import Glibc

/// A file with secrets written as it is made, for what is too large to build in memory first
/// (a sync state of a million accounts, a report of every row): the same checks and atomicity as
/// `SecureFile.writeSecret` — never through a symlink, never into a file or directory another
/// user owns or can write, a new 0600 file created with O_EXCL beside the path and renamed over
/// it by `commit()` — so readers see the old file or the whole new one. A FIFO or device of the
/// user's own is written in place as the bytes come. Without `commit()` the temporary file is
/// removed when the writer ends.
public final class SecretFileWriter {
    private let path: String
    private var fd: Int32
    /// The temporary file's name; nil when writing in place.
    private let tempPath: String?
    private var buffer: [UInt8] = []
    private var failure: String?
    private var done = false
    private static let blockBytes = 1 << 16

    public init(_ path: String) throws(StorageError) {
        self.path = path
        if try SecureFile.secretTarget(path) {
            (fd, tempPath) = try SecureFile.openTemporary(beside: path, mode: .private, reportedAs: path)
        } else {
            fd = try SecureFile.openInPlace(path)
            tempPath = nil
        }
        buffer.reserveCapacity(Self.blockBytes)
    }

    deinit {
        guard !done else { return }
        _ = close(fd)
        if let tempPath { _ = unlink(tempPath) }
    }

    /// Appends `bytes` (written a block at a time).
    public func write(_ bytes: some Collection<UInt8>) throws(StorageError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.blockBytes { try flush() }
    }

    /// Appends the UTF-8 of `text`.
    public func write(_ text: String) throws(StorageError) {
        try write(text.utf8)
    }

    private func flush() throws(StorageError) {
        if let failure { throw .io(path: path, reason: failure) }
        failure = SecureFile.writeAll(fd, buffer)
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw .io(path: path, reason: failure) }
    }

    /// Writes what is left and puts the file in place (fsync, rename, fsync of the directory).
    public func commit() throws(StorageError) {
        precondition(!done, "SecretFileWriter committed twice")
        if failure == nil && !buffer.isEmpty { failure = SecureFile.writeAll(fd, buffer) }
        buffer = []
        done = true
        guard let tempPath else {
            if close(fd) != 0 && failure == nil { failure = errnoText() }
            if let failure { throw .io(path: path, reason: failure) }
            return
        }
        try SecureFile.finishTemporary(fd, tempPath, as: path, failure: failure, reportedAs: path)
    }
}
