/// Failures reading or writing the tools' files and cache.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file or directory operation failed.
    case io(path: String, reason: String)
    /// A file exists but its mode lets others read it; it is not used.
    case insecurePermissions(path: String, mode: UInt32)
    /// A file or directory another user owns or can write, or a symlink where a secret is
    /// kept: it is not used (`FileTrust`).
    case untrusted(path: String, reason: String)
    /// A file's contents could not be read as what it should hold.
    case corrupt(path: String, reason: String)
    /// The home directory is unknown and no XDG variable says where to store files.
    case noHome
    /// The SQLite cache failed.
    case sqlite(String)

    public var description: String {
        switch self {
        case .io(let p, let r): return "\(p): \(r)"
        case .insecurePermissions(let p, let m):
            return "\(p) has mode \(String(m, radix: 8)); refusing to use it (run: chmod 600 '\(p)')"
        case .untrusted(let p, let r): return "\(p) \(r); refusing to use it"
        case .corrupt(let p, let r): return "\(p) is unreadable: \(r)"
        case .noHome: return "cannot find a home directory: set HOME or XDG_CONFIG_HOME"
        case .sqlite(let r): return "cache error: \(r)"
        }
    }
}
