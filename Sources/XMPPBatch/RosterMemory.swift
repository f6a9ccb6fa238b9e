import CryptoPrimitives
import Glibc
import XMPPStanzas
import XMPPStorage

/// What earlier batches left each account's roster as: per bare JID, a digest of the contacts
/// (JID, name, groups) its roster phase finished with, on any CSV. A later batch skips, without
/// logging in, an account that already existed, whose contacts digest the same and none of whose
/// contacts is new this run: a re-run changes only the rosters that change (one more pupil touches
/// the pupil, its class and the teachers, not the whole school). SQLite (0600) in the state
/// directory, `batch/rosters.sqlite3`, beside the journals.
final class RosterMemory {
    private let database: Database

    /// Opens (or creates) the memory at `path`; nil when it cannot be used, which only costs
    /// the skipping (every account's roster is then checked on the server).
    init?(path: String) {
        // SQLite would create it 0644 (less umask): 0600 as every file of the state directory.
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return nil }
        _ = close(fd)
        guard let db = try? Database(path: path) else { return nil }
        do {
            try db.execute("CREATE TABLE IF NOT EXISTS rosters (jid TEXT PRIMARY KEY, digest TEXT NOT NULL, updated_at INTEGER NOT NULL)")
        } catch {
            return nil
        }
        database = db
    }

    /// The digests recorded for `jids`.
    func digests(for jids: [JID]) -> [JID: String] {
        var out: [JID: String] = [:]
        for jid in jids {
            if let row = try? database.query("SELECT digest FROM rosters WHERE jid=?", [.text(jid.description)]).first,
               let digest = row.first?.text {
                out[jid] = digest
            }
        }
        return out
    }

    /// Records that `jid`'s roster phase finished with the contacts `digest` stands for.
    func remember(_ jid: JID, digest: String) {
        _ = try? database.query("INSERT OR REPLACE INTO rosters (jid, digest, updated_at) VALUES (?,?,strftime('%s','now'))",
                                [.text(jid.description), .text(digest)])
    }

    /// A digest of the contacts an account's roster is to hold, independent of their order.
    static func digest(_ contacts: [RosterItem]) -> String {
        var text = ""
        for item in contacts.sorted(by: { $0.jid.description < $1.jid.description }) {
            text += item.jid.description + "\u{1F}" + (item.name ?? "") + "\u{1F}" + item.groups.joined(separator: "\u{1E}") + "\n"
        }
        return Hex.encode(Crypto.hash(.sha256, Array(text.utf8)))
    }
}
