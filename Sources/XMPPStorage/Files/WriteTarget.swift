import Glibc

/// How a file is written, decided by what is at its path now.
///
/// Only a regular file (or nothing) may be replaced by rename: renaming over a device node,
/// a FIFO or a symlink would put a regular file in its place. So a device or FIFO is written
/// in place, and a symlink is followed to the file it names, which is then replaced
/// atomically while the link stays. A missing directory is never created.
enum WriteTarget: Equatable {
    /// Write a temporary file beside this path and rename it there (symlinks resolved).
    case replace(String)
    /// Open the path as it is (a device, FIFO or socket, possibly through symlinks) and write.
    case inPlace

    /// Links followed before giving up, as the kernel does (ELOOP).
    static let maxLinks = 40

    /// Classifies `path`; errors name `path` as the user gave it.
    static func classify(_ path: String) throws(StorageError) -> WriteTarget {
        var current = path
        for _ in 0..<maxLinks {
            var st = stat()
            guard lstat(current, &st) == 0 else {
                guard errno == ENOENT else { throw .io(path: path, reason: errnoText()) }
                try requireDirectory(of: current, for: path)
                return .replace(current)
            }
            switch st.st_mode & S_IFMT {
            case S_IFREG:
                return .replace(current)
            case S_IFDIR:
                throw .io(path: path, reason: "is a directory")
            case S_IFLNK:
                // A link to a device or FIFO (/dev/stdout, /proc/self/fd/N) is written through;
                // its text may not even be a path ("pipe:[1234]").
                var target = stat()
                if stat(current, &target) == 0, !isRegularOrDirectory(target.st_mode) { return .inPlace }
                current = try resolveLink(current, for: path)
            default:
                return .inPlace
            }
        }
        throw .io(path: path, reason: String(cString: strerror(ELOOP)))
    }

    private static func isRegularOrDirectory(_ mode: mode_t) -> Bool {
        let kind = mode & S_IFMT
        return kind == S_IFREG || kind == S_IFDIR
    }

    private static func requireDirectory(of current: String, for path: String) throws(StorageError) {
        let directory = PathText.directory(of: current)
        var st = stat()
        guard stat(directory, &st) == 0 else {
            throw .io(path: path, reason: "cannot create it in \(directory): \(errnoText())")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw .io(path: path, reason: "\(directory) is not a directory") }
    }

    /// The path a symlink names, relative targets taken from the link's directory.
    private static func resolveLink(_ link: String, for path: String) throws(StorageError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(link, &buffer, buffer.count - 1)
        guard n > 0 else { throw .io(path: path, reason: "cannot read the link \(link): \(errnoText())") }
        let target = String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if PathText.isAbsolute(target) { return target }
        let base = PathText.directory(of: link)
        return (base == "/" ? "" : base) + "/" + target
    }
}
