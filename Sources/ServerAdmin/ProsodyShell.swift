import Glibc
import TextFormats

/// Prosody's admin shell (`prosodyctl shell`, mod_admin_shell, on in Prosody 13's packaged
/// configuration), reached through the command that runs prosodyctl on the server's machine
/// (`prosodyctl`, or `sudo prosodyctl`, word-split as a shell splits it).
public struct ProsodyShell: Sendable {
    /// The command that runs prosodyctl.
    public let prosodyctl: String
    /// How long one shell command may take.
    public let timeoutSeconds: Int

    public init(prosodyctl: String, timeoutSeconds: Int) {
        self.prosodyctl = prosodyctl
        self.timeoutSeconds = timeoutSeconds
    }

    /// Reloads `module` on `host` (mod_groups reads its groups file when it loads): sessions stay
    /// connected. The shell answers "OK: Module reloaded on N host(s)"; 0 hosts means the module
    /// is not loaded there, which is an error naming the way to load it.
    public func reloadModule(_ module: String, host: String) throws(AdminError) {
        let words = ["shell", "module", "reload", module, host].map { ShellWord.quoted($0) ?? "''" }
        let line = prosodyctl + " " + words.joined(separator: " ")
        let (status, output) = try run(line)
        guard status == 0 else { throw .command(line, status: status, output: Self.lastLines(output)) }
        if output.contains("reloaded on 0 hosts") || !output.contains("Module reloaded on") {
            throw .command(line, status: status, output: "mod_\(module) is not loaded on \(host): add \"\(module)\" to its "
                           + "modules_enabled (and groups_file) and restart Prosody once; " + Self.lastLines(output))
        }
    }

    /// Empties `host`'s cache of the rosters of accounts that are offline (Prosody 0.12 and 13
    /// keep up to 1024 of them, loaded to answer a presence probe and the like). A roster found
    /// there is not loaded again at the account's log-in, so mod_groups, which adds its groups'
    /// contacts when a roster is loaded, would not show what changed since: each offline
    /// account's next log-in must load its roster afresh. Online accounts' rosters are not in
    /// it. The admin shell runs a line starting with '>' as Lua; the host goes in as a Lua
    /// string with every byte other than a letter, digit, '.' or '-' written as a decimal escape.
    public func clearRosterCache(host: String) throws(AdminError) {
        let lua = ">local h = hosts[\(Self.luaString(host))]; local c = h and h.roster_cache; if c then c:clear() end; return 'roster cache cleared'"
        let line = prosodyctl + " shell " + (ShellWord.quoted(lua) ?? "''")
        let (status, output) = try run(line)
        guard status == 0, output.contains("roster cache cleared") else { throw .command(line, status: status, output: Self.lastLines(output)) }
    }

    /// `text` as a Lua string literal, on bytes: letters, digits, '.' and '-' as they are, every
    /// other byte as a decimal escape (`\ddd`), so no quote, backslash or line break ends it.
    static func luaString(_ text: String) -> String {
        var out = "\""
        for byte in text.utf8 {
            let plain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x2D
            out += plain ? String(UnicodeScalar(byte)) : "\\" + (byte < 10 ? "00" : byte < 100 ? "0" : "") + String(byte)
        }
        return out + "\""
    }

    /// The last lines of `output`, for an error (prosodyctl prints banners about optional
    /// libraries before the answer).
    static func lastLines(_ output: String) -> String {
        output.split(separator: "\n").suffix(2).joined(separator: " / ")
    }

    private func run(_ line: String) throws(AdminError) -> (Int32, String) {
        try AdminCommandLine.run(line, timeoutSeconds: timeoutSeconds)
    }
}
