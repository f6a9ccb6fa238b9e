/// A batch journal's identity read back as the options it names (`key=value` pairs separated by
/// `; `, as `BatchInput.identity` writes them), so a refusal can say which option or input makes
/// another run a different batch instead of only that it is one.
enum JournalIdentity {
    /// The identity's pairs; a part without `=` (the version tag) is kept under its own text.
    static func pairs(_ identity: String) -> [String: String] {
        var out: [String: String] = [:]
        for part in identity.split(separator: ";") {
            let text = part.drop(while: { $0 == " " })
            if let eq = text.firstIndex(of: "=") {
                out[String(text[..<eq])] = String(text[text.index(after: eq)...])
            } else if !text.isEmpty {
                out[String(text)] = ""
            }
        }
        return out
    }

    /// What differs between the journal's run (`recorded`) and this one (`current`), one phrase
    /// per option in the words of the command line: "--admin: the journal's run had it, this one
    /// does not". Empty when they are the same batch.
    static func differences(recorded: String, current: String) -> [String] {
        guard recorded != current else { return [] }
        let old = pairs(recorded), new = pairs(current)
        if old.isEmpty { return ["the file is not a batch journal"] }
        var out: [String] = []
        func on(_ pairs: [String: String], _ key: String) -> Bool { (pairs[key] ?? "0") == "1" }
        // --invite runs as the administrator (admin=1 too): name --admin only when it differs on its own.
        let adminFollowsInvite = on(old, "invite") != on(new, "invite") && on(old, "admin") == on(old, "invite")
            && on(new, "admin") == on(new, "invite")
        for flag in [("admin", "--admin"), ("invite", "--invite"), ("generate", "--generate-passwords"), ("shared-groups", "--shared-groups")] {
            let had = on(old, flag.0), has = on(new, flag.0)
            if had != has && !(flag.0 == "admin" && adminFollowsInvite) { out.append(flag.1 + (had ? ": the journal's run had it, this one does not" : ": this run has it, the journal's run did not")) }
        }
        if old["mode"] != new["mode"] {
            out.append("the journal's run " + modeWords(old["mode"], past: true) + ", this one " + modeWords(new["mode"], past: false))
        }
        for option in [("domain", "--domain"), ("shard", "--shard")] where old[option.0] != new[option.0] {
            out.append(option.1 + ": the journal's run had " + valueWords(old[option.0]) + ", this one has " + valueWords(new[option.0]))
        }
        if old["input-sha256"] != new["input-sha256"] { out.append("the CSV's content differs") }
        if old["ldif-map"] != new["ldif-map"] { out.append("--map (the LDIF attributes' columns) differs") }
        if out.isEmpty { out.append("it was recorded by another version of xmpp-register") }
        return out
    }

    /// True when the two runs create the same CSV's accounts with the same options but one
    /// does it through the administrator's commands (--admin) and the other in-band.
    static func differOnlyInAdmin(_ recorded: String, _ current: String) -> Bool {
        var old = pairs(recorded), new = pairs(current)
        guard old["mode"] == "create", new["mode"] == "create", old["invite"] == nil, new["invite"] == nil,
              old["admin"] != new["admin"] else { return false }
        old["admin"] = nil
        new["admin"] = nil
        return old == new
    }

    private static func modeWords(_ mode: String?, past: Bool) -> String {
        switch mode {
        case "delete": return past ? "deleted accounts (--delete)" : "deletes accounts (--delete)"
        case "passwd": return past ? "changed passwords (--passwd)" : "changes passwords (--passwd)"
        case "create": return past ? "created accounts" : "creates accounts"
        default: return past ? "did something else" : "does something else"
        }
    }

    private static func valueWords(_ value: String?) -> String {
        guard let value, value != "-" else { return "none" }
        return value
    }
}

extension BatchJournal {
    /// What makes the batch `current` another one than `recorded` (both as `BatchInput.identity`
    /// writes them), one phrase per option; empty for the same batch.
    public static func differences(recorded: String, current: String) -> [String] {
        JournalIdentity.differences(recorded: recorded, current: current)
    }
}
