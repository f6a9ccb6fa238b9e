#if canImport(Glibc)
import Glibc
#endif
import TextFormats
import XMPPStorage

/// The `--report FILE` CSV, rebuilt from the journal so it is complete whatever happened to the
/// process: `line,jid,status,error,profile`, then `password` when the batch has generated (or
/// carried over) passwords, then `note`. Written atomically with mode 0600 (it may hold passwords).
enum BatchReport {
    /// The report's bytes for `entries` (one row each, by line).
    static func csv(_ entries: [JournalEntry], includePasswords: Bool) -> [UInt8] {
        var text = CSVWriter.record(["line", "jid", "status", "error", "profile"] + (includePasswords ? ["password"] : []) + ["note"])
        for e in entries.sorted(by: { $0.line < $1.line }) {
            var fields = [String(e.line), e.jid, e.status.rawValue, e.error ?? "", profileText(e.profile)]
            if includePasswords { fields.append(e.generatedPassword ?? "") }
            fields.append(e.note ?? "")
            text += CSVWriter.record(fields)
        }
        return Array(text.utf8)
    }

    /// `applied`, `pending: nickname avatar`, or empty.
    static func profileText(_ journalText: String?) -> String {
        switch ProfileState(journalText: journalText) {
        case nil: return ""
        case .applied: return "applied"
        case .pending(let columns): return "pending: " + columns.joined(separator: " ")
        }
    }

    /// The passwords an existing report at `path` holds, by JID (none when there is no file, or
    /// it has no password column). A file that cannot be read as a report is refused rather
    /// than overwritten: it might hold passwords in a shape this reader does not know.
    static func knownPasswords(at path: String) throws(ToolFailure) -> [String: String] {
        let bytes: [UInt8]?
        do { bytes = try SecureFile.read(path, maxBytes: 256 << 20) } catch {
            throw ToolFailure(.failed, "cannot read the existing report \(path): \(error)")
        }
        guard let bytes, !bytes.isEmpty else { return [:] }
        let notAReport = "\(path) exists and is not a batch report"
        let way = "; give another --report FILE, or move it away first"
        let records: [CSVRecord]
        do { records = try CSVReader.parse(bytes) } catch { throw ToolFailure(.usage, notAReport + " (\(error))" + way) }
        guard let header = records.first?.fields else { return [:] }
        guard let passwordColumn = header.firstIndex(of: "password") else { return [:] }
        guard let jidColumn = header.firstIndex(of: "jid") else { throw ToolFailure(.usage, notAReport + " (no jid column)" + way) }
        var known: [String: String] = [:]
        for record in records.dropFirst() where record.fields.count > max(jidColumn, passwordColumn) {
            let password = record.fields[passwordColumn]
            if !password.isEmpty { known[record.fields[jidColumn]] = password }
        }
        return known
    }

    /// fsync of the directory holding `path`, so that the report's rename survives a power loss
    /// before the journal's copy of the passwords is wiped.
    static func syncDirectory(of path: String) throws(StorageError) {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: directory, reason: String(cString: strerror(errno))) }
        defer { _ = close(fd) }
        guard fsync(fd) == 0 else { throw .io(path: directory, reason: String(cString: strerror(errno))) }
    }
}
