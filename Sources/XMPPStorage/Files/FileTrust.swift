import Glibc

/// Whether a file or directory can be trusted with secrets, decided as OpenSSH's StrictModes and
/// git's safe.directory do: it must belong to the effective user (root's own files for root, no
/// exemption for root otherwise) and nobody else may write to it. Another local user can create
/// files and directories wherever a directory is shared (`/tmp`, a group folder, a directory
/// someone else made for us), so a path found in place is checked before it is read, written
/// through or used to hold secrets; it is never chmod'ed into shape.
public enum FileTrust {
    /// Refuses what `st` describes (found at `path`) unless it is owned by the effective user
    /// and not writable by its group or others.
    static func requireOwned(_ st: stat, at path: String) throws(StorageError) {
        let me = geteuid()
        if st.st_uid != me {
            throw .untrusted(path: path, reason: "is owned by \(userName(st.st_uid)), not by you, \(userName(me))")
        }
        if st.st_mode & S_IFMT != S_IFLNK, st.st_mode & 0o022 != 0 {
            let who = st.st_mode & 0o002 != 0 ? "everyone" : "its group"
            throw .untrusted(path: path, reason: "is writable by \(who) (mode \(String(st.st_mode & 0o7777, radix: 8))); "
                             + "run: chmod go-w '\(path)'")
        }
    }

    /// What `path` itself is (`lstat`), refused unless it is of `type` (`S_IFDIR`, `S_IFREG`;
    /// never a symbolic link) and `requireOwned` accepts it. `kind` names the type and `use`
    /// what the path is for, in the refusal.
    private static func requireOwned(_ path: String, type: mode_t, kind: String, use: String) throws(StorageError) -> stat {
        var st = stat()
        guard lstat(path, &st) == 0 else { throw .io(path: path, reason: errnoText()) }
        guard st.st_mode & S_IFMT == type else {
            let what = st.st_mode & S_IFMT == S_IFLNK ? "is a symbolic link" : "is not " + kind
            throw .untrusted(path: path, reason: what + "; " + use)
        }
        try requireOwned(st, at: path)
        return st
    }

    /// A directory of the tools' own (the config, cache and state directories and the ones in
    /// them), created 0700 when missing. One found in place must be a real directory, not a
    /// symlink, owned by the user and writable by nobody else; then it is set to 0700, and a
    /// failure to do so is an error.
    static func requireOwnDirectory(_ path: String) throws(StorageError) {
        let st = try requireOwned(path, type: S_IFDIR, kind: "a directory",
                                  use: "the tools keep their files only in a directory of their own")
        if st.st_mode & 0o777 != 0o700 && chmod(path, 0o700) != 0 {
            throw .io(path: path, reason: "cannot set mode 0700: " + errnoText())
        }
    }

    /// A directory where a secret file is about to be created (such as `--report`'s): owned by
    /// the user or by root, and writable by nobody else unless it is sticky (`/tmp`), where only
    /// a file's owner may remove or rename it. A group-writable folder is refused: anyone in the
    /// group could swap the file for another after it is written.
    public static func requireSafeDirectory(_ path: String) throws(StorageError) {
        try requireSafeAncestors(of: path)
        var st = stat()
        guard stat(path, &st) == 0 else { throw .io(path: path, reason: errnoText()) }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw .io(path: path, reason: "is not a directory") }
        let me = geteuid()
        if st.st_uid != me && st.st_uid != 0 {
            throw .untrusted(path: path, reason: "is owned by \(userName(st.st_uid)), not by you, \(userName(me)); "
                             + "a file with passwords is not put in another user's directory")
        }
        if st.st_mode & 0o022 != 0 && st.st_mode & S_ISVTX == 0 {
            let who = st.st_mode & 0o002 != 0 ? "everyone" : "its group"
            throw .untrusted(path: path, reason: "is writable by \(who) (mode \(String(st.st_mode & 0o7777, radix: 8))) "
                             + "and not sticky, so others could replace a file in it; choose a private directory")
        }
    }

    /// Every directory above `path` (resolved through its links, as the kernel reaches it) up to
    /// the root, checked as OpenSSH's `safe_path` checks the directories above a key: each is
    /// owned by the user or by root, and writable by nobody else unless it is root's and sticky
    /// (`/tmp`). Whoever can write in a directory above can rename the path's directory away and
    /// put one of their own in its place, however private that directory is itself.
    public static func requireSafeAncestors(of path: String) throws(StorageError) {
        guard let resolved = realpath(path, nil) else {
            // Not there yet: the nearest existing directory above is what holds it.
            guard errno == ENOENT, let parent = PathText.parent(of: path) else { throw .io(path: path, reason: errnoText()) }
            return try requireSafeAncestors(of: parent)
        }
        let full = String(cString: resolved)
        free(resolved)
        var current = full
        let me = geteuid()
        while let parent = PathText.parent(of: current) {
            var st = stat()
            guard stat(parent, &st) == 0 else { throw .io(path: parent, reason: errnoText()) }
            if st.st_uid != me && st.st_uid != 0 {
                throw .untrusted(path: parent, reason: "is owned by \(userName(st.st_uid)), not by you or root, and holds \(path); "
                                 + "they could replace what is below it: choose a directory of your own")
            }
            if st.st_mode & 0o022 != 0 && !(st.st_uid == 0 && st.st_mode & S_ISVTX != 0) {
                let who = st.st_mode & 0o002 != 0 ? "everyone" : "its group"
                throw .untrusted(path: parent, reason: "is writable by \(who) (mode \(String(st.st_mode & 0o7777, radix: 8))) and holds "
                                 + "\(path); others could replace what is below it: run chmod go-w '\(parent)' or choose another directory")
            }
            current = parent
        }
    }

    /// A directory the user named for files with secrets (`--report-by-group`), checked as the
    /// tools' own directories are, but never chmod'ed: a real directory (never a symlink, which
    /// another user may have planted), the user's own, writable by nobody else, below safe
    /// directories only.
    public static func requirePrivateDirectory(_ path: String) throws(StorageError) {
        _ = try requireOwned(path, type: S_IFDIR, kind: "a directory", use: "files with passwords are written only into a directory of your own")
        try requireSafeAncestors(of: path)
    }

    /// `requirePrivateDirectory` for a directory that may not be made yet: when nothing is at
    /// `path`, the nearest directory above it that exists is checked as `requireSafeDirectory`
    /// checks (it and all above it: the new directory will be made 0700 there), so that a run
    /// can refuse before its first change rather than when it writes there.
    public static func requirePrivateDirectoryOrAbsent(_ path: String) throws(StorageError) {
        var st = stat()
        guard lstat(path, &st) != 0 && errno == ENOENT else { return try requirePrivateDirectory(path) }
        var current = path
        while let parent = PathText.parent(of: current) {
            if lstat(parent, &st) == 0 { return try requireSafeDirectory(parent) }
            guard errno == ENOENT else { throw .io(path: parent, reason: errnoText()) }
            current = parent
        }
    }

    /// Opens `path` for reading without following a symlink, and refuses it unless it is a
    /// regular file owned by the user that nobody else can write. nil when it does not exist.
    /// The caller closes the descriptor.
    static func openOwned(_ path: String, flags: Int32 = O_RDONLY) throws(StorageError) -> Int32? {
        let fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw .untrusted(path: path, reason: "is a symbolic link; refusing to follow it") }
            throw .io(path: path, reason: errnoText())
        }
        var st = stat()
        do throws(StorageError) {
            guard fstat(fd, &st) == 0 else { throw StorageError.io(path: path, reason: errnoText()) }
            guard st.st_mode & S_IFMT == S_IFREG else { throw StorageError.untrusted(path: path, reason: "is not a regular file") }
            try requireOwned(st, at: path)
        } catch {
            _ = close(fd)
            throw error
        }
        return fd
    }

    /// Opens (creating 0600 when missing, never through a symlink) a lock file that must be the
    /// user's: a lock file someone else planted could be held by them forever. The caller
    /// closes the descriptor.
    static func openLockFile(_ path: String) throws(StorageError) -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .io(path: path, reason: "cannot open the lock file: " + errnoText()) }
        var st = stat()
        do throws(StorageError) {
            guard fstat(fd, &st) == 0 else { throw StorageError.io(path: path, reason: errnoText()) }
            try requireOwned(st, at: path)
        } catch {
            _ = close(fd)
            throw error
        }
        return fd
    }

    /// Makes sure `path` exists as a regular file of the user's, mode 0600, created with
    /// O_EXCL|O_NOFOLLOW when missing (so a file or link planted at that name is never
    /// adopted), and refused when found owned by someone else or writable by others.
    static func createOrCheckPrivateFile(_ path: String) throws(StorageError) {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 {
            _ = close(fd)
            return
        }
        guard errno == EEXIST else { throw .io(path: path, reason: errnoText()) }
        let st = try requireOwned(path, type: S_IFREG, kind: "a regular file", use: "refusing to keep secrets in it")
        // The user's own file that others may only read (SQLite made files 0644 before this
        // check existed): closing it to them is safe, and makes it private from here on.
        if st.st_mode & 0o077 != 0 && chmod(path, 0o600) != 0 {
            throw .io(path: path, reason: "cannot set mode 0600: " + errnoText())
        }
    }

    /// SQLite's files for the database at `path`: the database, its write-ahead log and shared
    /// memory index (WAL mode) and its rollback journal. SQLite opens the companions as it finds
    /// them, so they are created here first, 0600, and any found in place must be the user's.
    public static let sqliteSuffixes = ["", "-wal", "-shm", "-journal"]

    /// Prepares the database at `path` and its companions (`sqliteSuffixes`) for SQLite.
    public static func prepareSQLiteFiles(_ path: String) throws(StorageError) {
        for suffix in sqliteSuffixes { try createOrCheckPrivateFile(path + suffix) }
    }

    /// "mallory (uid 1001)", or "uid 1001" when the account has no name.
    static func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "\(String(cString: name)) (uid \(uid))"
    }
}
