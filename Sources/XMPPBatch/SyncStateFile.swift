import TextFormats
import XMPPStorage

/// The files below `STATE/sync/` (`STATE`: `$XDG_STATE_HOME/xmpp-tools`): sync's state of a
/// domain's accounts (`SyncState`), of its shared roster groups (`SyncGroupsState`), and the lock
/// both are read and written under. Private to the user: files 0600 in 0700 directories, read only
/// when the user owns them and nobody else can write them, replaced atomically.
enum SyncStateFile {
    /// Makes `stateDirectory` and its `sync` directory (0700) where they are missing.
    static func makeDirectories(_ stateDirectory: String) throws(StorageError) {
        try SecureFile.makeDirectory(stateDirectory)
        try SecureFile.makeDirectory(stateDirectory + "/sync")
    }

    /// The bytes of `path`, at most `maxBytes`; nil when there is no such file.
    static func read(_ path: String, maxBytes: Int) throws(BatchError) -> [UInt8]? {
        do { return try SecureFile.read(path, trusted: true, requirePrivate: true, maxBytes: maxBytes) } catch {
            throw .syncState("cannot read \(error)")
        }
    }

    /// Writes `value` to `path` as indented JSON ending in a newline; `what` names it in the error.
    static func write(_ value: JSONValue, to path: String, stateDirectory: String, what: String) throws(BatchError) {
        do {
            try makeDirectories(stateDirectory)
            try SecureFile.writeSecret(value.prettyUTF8 + [0x0A], to: path)
        } catch {
            throw .syncState("cannot write \(what): \(error)")
        }
    }
}
