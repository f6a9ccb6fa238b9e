#if canImport(Glibc)
import Glibc
#endif

/// Private, atomic file I/O: directories 0700, files 0600, writes by temp file + fsync + rename.
public enum SecureFile {
    /// Creates `path` and missing parents with mode 0700. Existing directories keep their
    /// mode, except that with `tighten` the last component is set to 0700: pass it only for
    /// the tools' own directories, never for a directory a user named.
    public static func makeDirectory(_ path: String, tighten: Bool = true) throws(StorageError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + part
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw .io(path: current, reason: errnoText())
            }
        }
        if tighten { _ = chmod(path, 0o700) }
    }

    /// The mode a new file gets: `private` (0600) for credentials, journals and reports;
    /// `shared` (0666 less the umask, like any new file) for images and cards a user asked for.
    public enum Mode: Sendable { case `private`, shared }

    /// Writes `bytes` to `path` atomically: a temporary file in the same directory, fsync, then
    /// rename, so readers see the old file or the new one and nothing half-written survives a
    /// crash. Missing parent directories are created 0700; existing ones are left alone.
    public static func write(_ bytes: [UInt8], to path: String, mode: Mode = .private) throws(StorageError) {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !directory.isEmpty { try makeDirectory(directory, tighten: false) }
        var template = Array((path + ".tmp.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .io(path: path, reason: errnoText()) }
        let tempPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var permissions: mode_t = 0o600
        if mode == .shared {
            let mask = umask(0)
            _ = umask(mask)
            permissions = 0o666 & ~mask
        }
        var ok = fchmod(fd, permissions) == 0
        var offset = 0
        while ok && offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ok = false } else { offset += n }
        }
        let reason = ok ? "" : errnoText()
        ok = ok && fsync(fd) == 0
        _ = close(fd)
        guard ok, rename(tempPath, path) == 0 else {
            let why = reason.isEmpty ? errnoText() : reason
            _ = unlink(tempPath)
            throw .io(path: path, reason: why)
        }
    }

    /// Reads a file; nil if it does not exist. With `requirePrivate`, a file readable or
    /// writable by group or others is refused.
    public static func read(_ path: String, requirePrivate: Bool = false, maxBytes: Int = 16 << 20) throws(StorageError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .io(path: path, reason: errnoText())
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
            if !name.hasPrefix(".") && !name.contains(".tmp.") { names.append(name) }
        }
        return names.sorted()
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }
