import Glibc

/// Which file a path names, by device and inode: two different strings (`in.csv`, `./in.csv`,
/// a symlink, a hard link, `/dev/stdin` for an input on standard input) can name one file, and
/// writing an output over the input loses it.
public struct FileIdentity: Sendable, Equatable {
    public let device: UInt64
    public let inode: UInt64

    /// The file `path` names (through symlinks), or nil when there is none.
    public init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    /// The file open on descriptor `fd` (standard input: 0), or nil.
    public init?(descriptor fd: Int32) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}
