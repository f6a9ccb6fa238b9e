import Glibc

/// An exclusive advisory lock on a lock file, for read-modify-write of state that several
/// programs (or threads) of one user may change at once.
///
/// `flock` locks belong to an open file description, so two threads of one process that each
/// open the lock file exclude each other as two processes do (POSIX `fcntl` locks would not).
/// The lock file stays in place; the kernel releases the lock when the holder exits, so a
/// killed program never leaves a stale lock behind.
public final class FileLock {
    private var fd: Int32
    /// The lock file.
    public let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Takes the lock on `path` (created 0600 if missing; its directory must exist), waiting
    /// for the current holder first.
    public static func acquire(_ path: String) throws(StorageError) -> FileLock {
        let fd = try FileTrust.openLockFile(path)
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let reason = errnoText()
            _ = close(fd)
            throw .io(path: path, reason: "cannot lock: " + reason)
        }
        return FileLock(fd: fd, path: path)
    }

    /// Takes the lock on `path` if no one holds it (created as `acquire` does); nil at once
    /// while someone does, for a caller that must not wait (a poll loop).
    public static func acquireIfFree(_ path: String) throws(StorageError) -> FileLock? {
        let fd = try FileTrust.openLockFile(path)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let busy = errno == EWOULDBLOCK
            let reason = errnoText()
            _ = close(fd)
            if busy { return nil }
            throw .io(path: path, reason: "cannot lock: " + reason)
        }
        return FileLock(fd: fd, path: path)
    }

    /// Releases the lock (also done when the object goes away).
    public func release() {
        guard fd >= 0 else { return }
        _ = close(fd)
        fd = -1
    }

    deinit { release() }

    /// Runs `body` while holding the lock on `path`.
    public static func withExclusive<T>(_ path: String, _ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        let lock = try acquire(path)
        defer { lock.release() }
        return try body()
    }
}
