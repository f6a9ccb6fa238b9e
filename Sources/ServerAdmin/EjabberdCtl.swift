import TextFormats

/// ejabberd's own command-line tool, for a server whose HTTP API is off: the same srg_*
/// commands as `EjabberdAPI`, each one `ejabberdctl` run (an Erlang VM started, about half a
/// second to two), its arguments single-quoted on bytes (`ShellWord`), its output read as
/// ejabberdctl prints it: a list one item a line, a list of pairs as `key<TAB>value` lines.
public struct EjabberdCtl: SharedRosterAdmin, Sendable {
    /// The command that runs ejabberdctl (`ejabberdctl`, `sudo -u ejabberd ejabberdctl`),
    /// word-split as a shell splits it.
    public let command: String
    /// How long one call may take.
    public let timeoutSeconds: Int

    public init(command: String, timeoutSeconds: Int) {
        self.command = command
        self.timeoutSeconds = timeoutSeconds
    }

    /// Runs `name` with `arguments`; its output. A non-zero exit status is an error naming it.
    func run(_ name: String, _ arguments: [String]) throws(AdminError) -> String {
        let line = command + " " + ([name] + arguments).map { ShellWord.quoted($0) ?? "''" }.joined(separator: " ")
        let (status, output) = try AdminCommandLine.run(line, timeoutSeconds: timeoutSeconds)
        guard status == 0 else {
            throw .command(line, status: status, output: output.split(separator: "\n").suffix(2).joined(separator: " / "))
        }
        return output
    }

    /// A list, one item a line.
    func lines(_ name: String, _ arguments: [String]) throws(AdminError) -> [String] {
        Self.withoutReports(try run(name, arguments)).filter { !$0.isEmpty }
    }

    /// The lines of `output` without the Erlang VM's reports, which ejabberdctl prints on
    /// standard output before the result (`=ERROR REPORT==== date ===` up to an empty line,
    /// e.g. for an unreadable `.erlang` in the caller's configuration directory).
    static func withoutReports(_ output: String) -> [String] {
        var out: [String] = []
        var inReport = false
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if inReport {
                if line.isEmpty { inReport = false }
                continue
            }
            if line.utf8.first == UInt8(ascii: "=") && line.contains(" REPORT==== ") {
                inReport = true
                continue
            }
            out.append(String(line))
        }
        return out
    }

    public func sharedGroupIDs(host: String) throws(AdminError) -> [String] {
        try lines("srg_list", [host])
    }

    /// srg_get_info's `key<TAB>value` lines (label, displayed_groups, description; the last
    /// line of a key counts, so a label holding a line break cannot put a description before
    /// the real one; `pairs`) and srg_get_members. 24.12 prints the displayed groups as a list of quoted
    /// identifiers with ", " items between them: `["a",", ","b"]`.
    public func sharedGroup(id: String, host: String) throws(AdminError) -> EjabberdAPI.SharedGroup {
        let info = Self.pairs(try lines("srg_get_info", [id, host]))
        let members = try lines("srg_get_members", [id, host])
        return EjabberdAPI.SharedGroup(id: id, label: info["label"] ?? info["name"] ?? "", description: info["description"] ?? "",
                                       displays: Self.displayed(info["displayed_groups"] ?? ""), members: Set(members))
    }

    /// `key<TAB>value` lines as a dictionary. A line that does not start with a key (lowercase
    /// letters and '_') and a tab continues the value before it: the Erlang VM wraps a long
    /// list at about 80 columns (`["a",", ",` then ` "b"]`).
    static func pairs(_ lines: [String]) -> [String: String] {
        var info: [String: String] = [:]
        var last: String?
        for line in lines {
            let bytes = Array(line.utf8)
            if let tab = bytes.firstIndex(of: UInt8(ascii: "\t")), tab > 0,
               bytes[..<tab].allSatisfy({ ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "_") }) {
                let key = String(decoding: bytes[..<tab], as: UTF8.self)
                info[key] = String(decoding: bytes[(tab + 1)...], as: UTF8.self)
                last = key
            } else if let key = last {
                info[key, default: ""] += "\n" + line
            }
        }
        return info
    }

    /// The identifiers of a displayed_groups value, as ejabberdctl and the HTTP API give it: the
    /// quoted strings of `["a",", ","b"]` other than the separators, or a plain list separated by
    /// commas or line breaks.
    static func displayed(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "[") else {
            return text.split(whereSeparator: { $0 == "," || $0 == "\n" }).map { $0.trimming { $0 == " " || $0 == "\t" } }
                .filter { !$0.isEmpty }
        }
        var out: [String] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\"") else { i += 1; continue }
            var j = i + 1
            while j < bytes.count && bytes[j] != UInt8(ascii: "\"") { j += 1 }
            let item = String(decoding: bytes[(i + 1)..<min(j, bytes.count)], as: UTF8.self).trimming { $0 == " " || $0 == "\t" }
            if !item.isEmpty && item != "," { out.append(item) }
            i = j + 1
        }
        return out
    }

    public func createSharedGroup(_ group: EjabberdAPI.SharedGroup, host: String) throws(AdminError) {
        _ = try run("srg_create", [group.id, host, group.label, group.description, group.displays.joined(separator: ",")])
    }

    public func deleteSharedGroup(id: String, host: String) throws(AdminError) {
        _ = try run("srg_delete", [id, host])
    }

    public func setMember(user: String, userHost: String, group id: String, host: String, remove: Bool) throws(AdminError) {
        _ = try run(remove ? "srg_user_del" : "srg_user_add", [user, userHost, id, host])
    }
}
