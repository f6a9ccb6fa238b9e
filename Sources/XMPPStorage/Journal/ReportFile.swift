#if canImport(Glibc)
import Glibc
#endif

/// A file at a path the user chose (a batch report): written atomically (temp file in the same
/// directory, fsync, rename) with mode 0600, leaving the directory itself alone — unlike
/// `SecureFile.write`, which makes its parent private and would do so to `/tmp` or a home.
public enum ReportFile {
    /// Replaces `path` with `bytes`; readers see the old file or the new one, never a mixture.
    /// `path` must be absolute; its directory must exist.
    public static func write(_ bytes: [UInt8], to path: String) throws(StorageError) {
        var template = Array((path + ".tmp.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .io(path: path, reason: errnoText()) }
        let tempPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = fchmod(fd, 0o600) == 0
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
}
