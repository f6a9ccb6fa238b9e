/// File paths as the kernel reads them: bytes, `/` separating components. Swift's String
/// compares Characters, and a combining mark after `/` or `.` makes one Character of the two, so
/// `lastIndex(of: "/")` or `hasPrefix(".")` on a path would skip a separator the kernel sees (and
/// check a secret's directory as the wrong one). Every path split or tested here is split on bytes.
public enum PathText {
    private static let slash = UInt8(ascii: "/")

    /// Whether `path` starts at the root.
    public static func isAbsolute(_ path: String) -> Bool { path.utf8.first == slash }

    /// `path` against `directory` unless it is absolute.
    public static func absolute(_ path: String, from directory: String) -> String {
        isAbsolute(path) ? path : directory + "/" + path
    }

    /// The directory part of `path`: what comes before its last `/` (`/` for a file at the root,
    /// `.` when there is no `/`). A trailing `/` is part of the last component, as before.
    public static func directory(of path: String) -> String {
        let bytes = Array(path.utf8)
        guard let last = bytes.lastIndex(of: slash) else { return "." }
        return last == 0 ? "/" : String(decoding: bytes[..<last], as: UTF8.self)
    }

    /// The directory holding `path` (absolute or relative; trailing `/`s do not count), or nil
    /// at the root and for `.`: the next step of a walk up to the root.
    public static func parent(of path: String) -> String? {
        var bytes = Array(path.utf8)
        while bytes.count > 1 && bytes.last == slash { bytes.removeLast() }
        guard bytes != [slash], bytes != [UInt8(ascii: ".")] else { return nil }
        guard bytes.contains(slash) else { return "." }
        return directory(of: String(decoding: bytes, as: UTF8.self))
    }

    /// The last component (`path` itself when it has no `/`).
    public static func lastComponent(_ path: String) -> String {
        let bytes = Array(path.utf8)
        guard let last = bytes.lastIndex(of: slash) else { return path }
        return String(decoding: bytes[(last + 1)...], as: UTF8.self)
    }

    /// The components between `/`s, empty ones left out.
    public static func components(_ path: String) -> [String] {
        path.utf8.split(separator: slash).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `name` starts with `.` (a dot file, `.` or `..`), by its first byte.
    public static func isHidden(_ name: String) -> Bool { name.utf8.first == UInt8(ascii: ".") }

    /// Whether `text` holds a `/` byte anywhere.
    public static func containsSeparator(_ text: String) -> Bool { text.utf8.contains(slash) }
}
