import Glibc

/// Private, atomic file I/O: directories 0700, files 0600, writes by temp file + fsync + rename
/// (+ fsync of the directory).
public enum SecureFile {
    /// Creates `path` and missing parents with mode 0700. Existing directories keep their
    /// mode, except that with `tighten` the last component must be the user's own directory,
    /// which nobody else can write and whose parent nobody else can rename it in, and is set
    /// to 0700 (`FileTrust`): pass it only for the tools' own directories, never for a
    /// directory a user named.
    public static func makeDirectory(_ path: String, tighten: Bool = true) throws(StorageError) {
        var current = PathText.isAbsolute(path) ? "" : "."
        for part in PathText.components(path) {
            current += "/" + part
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw .io(path: current, reason: errnoText())
            }
        }
        if tighten {
            try FileTrust.requireSafeDirectory(PathText.directory(of: path))
            try FileTrust.requireOwnDirectory(path)
        }
    }

    /// The mode a new file gets: `private` (0600) for credentials, journals and reports;
    /// `shared` (0666 less the umask, like any new file) for images and cards a user asked for.
    public enum Mode: Sendable { case `private`, shared }

    /// Writes `bytes` to `path`. A regular file (or a new one) is replaced atomically: a
    /// temporary file in the same directory, fsync, rename, fsync of the directory, so readers
    /// see the old file or the new one and nothing half-written survives a crash. A symlink is
    /// followed and the file it names is replaced the same way (the link stays). A device or
    /// FIFO is written in place, as a shell's `>` would, and keeps its mode. A missing
    /// directory is an error: callers create their own directories first.
    public static func write(_ bytes: [UInt8], to path: String, mode: Mode = .private) throws(StorageError) {
        switch try WriteTarget.classify(path) {
        case .replace(let resolved): try replace(resolved, with: bytes, mode: mode, reportedAs: path)
        case .inPlace: try writeInPlace(bytes, to: path)
        }
    }

    /// Writes a secret (a session, `accounts.json`, a report with passwords) to `path`, never
    /// through a symlink and never into a file or directory another user owns or can write:
    /// a new file is created 0600 with O_EXCL beside the path and renamed over it. A FIFO or
    /// device of the user's own is written in place.
    public static func writeSecret(_ bytes: [UInt8], to path: String) throws(StorageError) {
        let writer = try SecretFileWriter(path)
        try writer.write(bytes)
        try writer.commit()
    }

    /// What `writeSecret` would write to: a new or regular file of the user's is replaced
    /// (`true`), a FIFO or device of the user's own is written in place (`false`).
    static func secretTarget(_ path: String) throws(StorageError) -> Bool {
        try FileTrust.requireSafeDirectory(PathText.directory(of: path))
        var st = stat()
        guard lstat(path, &st) == 0 else {
            guard errno == ENOENT else { throw .io(path: path, reason: errnoText()) }
            return true
        }
        switch st.st_mode & S_IFMT {
        case S_IFLNK:
            throw .untrusted(path: path, reason: "is a symbolic link; a file holding secrets is never written through one")
        case S_IFDIR:
            throw .io(path: path, reason: "is a directory")
        case S_IFREG:
            try FileTrust.requireOwned(st, at: path)
            return true
        default:
            try FileTrust.requireOwned(st, at: path)
            return false
        }
    }

    private static func replace(_ path: String, with bytes: [UInt8], mode: Mode, reportedAs name: String) throws(StorageError) {
        let (fd, tempPath) = try openTemporary(beside: path, mode: mode, reportedAs: name)
        try finishTemporary(fd, tempPath, as: path, failure: writeAll(fd, bytes), reportedAs: name)
    }

    /// A new file beside `path` (`path.tmp.XXXXXX`, O_EXCL) with the mode's permissions: the
    /// first half of an atomic replacement. Its descriptor and name.
    static func openTemporary(beside path: String, mode: Mode, reportedAs name: String) throws(StorageError) -> (Int32, String) {
        var template = Array((path + ".tmp.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .io(path: name, reason: errnoText()) }
        let tempPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var permissions: mode_t = 0o600
        if mode == .shared {
            let mask = umask(0)
            _ = umask(mask)
            permissions = 0o666 & ~mask
        }
        if fchmod(fd, permissions) != 0 {
            let failure = errnoText()
            _ = close(fd)
            _ = unlink(tempPath)
            throw .io(path: name, reason: failure)
        }
        return (fd, tempPath)
    }

    /// The second half: fsync, close and rename the temporary file over `path`, then sync the
    /// directory; on any failure (or an earlier `failure`) the temporary file is removed.
    static func finishTemporary(_ fd: Int32, _ tempPath: String, as path: String, failure earlier: String?,
                                reportedAs name: String) throws(StorageError) {
        var failure = earlier
        if failure == nil && fsync(fd) != 0 { failure = errnoText() }
        if close(fd) != 0 && failure == nil { failure = errnoText() }
        if failure == nil && rename(tempPath, path) != 0 { failure = errnoText() }
        if let failure {
            _ = unlink(tempPath)
            throw .io(path: name, reason: failure)
        }
        try syncDirectory(PathText.directory(of: path), reportedAs: name)
    }

    /// Makes a rename durable: until its directory is synced, a crash may bring back the old file.
    private static func syncDirectory(_ directory: String, reportedAs name: String) throws(StorageError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: name, reason: "cannot sync \(directory): \(errnoText())") }
        defer { _ = close(fd) }
        // Some file systems cannot sync a directory (EINVAL); their renames are as durable as they get.
        if fsync(fd) != 0 && errno != EINVAL { throw .io(path: name, reason: "cannot sync \(directory): \(errnoText())") }
    }

    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(StorageError) {
        let fd = try openInPlace(path)
        var failure = writeAll(fd, bytes)
        if close(fd) != 0 && failure == nil { failure = errnoText() }
        if let failure { throw .io(path: path, reason: failure) }
    }

    /// Opens a FIFO or device to be written in place (never a regular file that replaced it).
    static func openInPlace(_ path: String) throws(StorageError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw .io(path: path, reason: errnoText()) }
        var st = stat()
        let failure = fstat(fd, &st) == 0 ? (st.st_mode & S_IFMT == S_IFREG ? "was replaced by a regular file while opening it" : nil)
            : errnoText()
        if let failure {
            _ = close(fd)
            throw .io(path: path, reason: failure)
        }
        return fd
    }

    /// Writes every byte, retrying short writes and EINTR; the error text on failure.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> String? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return errnoText() }
            if n == 0 { return "no progress writing" }
            offset += n
        }
        return nil
    }

    /// Reads a file; nil if it does not exist. With `trusted` (what the tools act on: sessions,
    /// accounts, a report's passwords), it must be a regular file, not reached through a
    /// symlink, owned by the user and writable by nobody else (`FileTrust`); with
    /// `requirePrivate` as well, a file readable or writable by group or others is refused.
    public static func read(_ path: String, trusted: Bool = false, requirePrivate: Bool = false,
                            maxBytes: Int = 16 << 20) throws(StorageError) -> [UInt8]? {
        let fd: Int32
        if trusted || requirePrivate {
            guard let owned = try FileTrust.openOwned(path) else { return nil }
            fd = owned
        } else {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 {
                if errno == ENOENT { return nil }
                throw .io(path: path, reason: errnoText())
            }
        }
        defer { _ = close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .io(path: path, reason: errnoText()) }
        if requirePrivate && (st.st_mode & 0o077) != 0 {
            throw .insecurePermissions(path: path, mode: st.st_mode & 0o777)
        }
        guard Int(st.st_size) <= maxBytes else { throw .corrupt(path: path, reason: "larger than \(maxBytes) bytes") }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .io(path: path, reason: errnoText()) }
            if n == 0 { break }
            out += buffer.prefix(n)
            if out.count > maxBytes { throw .corrupt(path: path, reason: "larger than \(maxBytes) bytes") }
        }
        return out
    }

    /// Removes a file; a missing file is not an error.
    public static func remove(_ path: String) throws(StorageError) {
        if unlink(path) != 0 && errno != ENOENT { throw .io(path: path, reason: errnoText()) }
    }

    /// Names in a directory (no dot files); empty if it does not exist.
    public static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !PathText.isHidden(name) && !name.contains(".tmp.") { names.append(name) }
        }
        return names.sorted()
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }
