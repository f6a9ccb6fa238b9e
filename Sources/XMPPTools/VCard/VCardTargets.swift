import XMPPStanzas

/// Whose cards `get` fetches: the account's own, or JIDs from the command line and stdin.
enum VCardTarget {
    /// The account's own card (a missing card is an empty one).
    case own(JID)
    /// Another JID's card.
    case other(JID)
    /// A word that is not a JID, kept to report it in order.
    case invalid(String, String)

    /// The JID shown in output (the text as given for invalid words).
    var label: String {
        switch self {
        case .own(let j), .other(let j): return j.description
        case .invalid(let text, _): return text
        }
    }

    /// The JID, if the word was one.
    var jid: JID? {
        switch self {
        case .own(let j), .other(let j): return j
        case .invalid: return nil
        }
    }

    /// Resolves the positional words: none is the account itself, `-` reads one JID a line
    /// from stdin (blank lines and `#` comments skipped), a word without `@` is a user on the
    /// account's domain, and the account's own JID counts as its own card.
    static func resolve(_ words: [String], account: JID, stdin: () -> String) -> [VCardTarget] {
        guard !words.isEmpty else { return [.own(account)] }
        var result: [VCardTarget] = []
        for word in words {
            if word == "-" {
                for line in stdin().split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                    let text = line.trimmingWhitespace()
                    if text.isEmpty || text.hasPrefix("#") { continue }
                    result.append(target(text, account: account))
                }
            } else {
                result.append(target(word, account: account))
            }
        }
        return result
    }

    static func target(_ text: String, account: JID) -> VCardTarget {
        let full = text.unicodeScalars.contains("@") ? text : "\(text)@\(account.domain)"
        do {
            let jid = try JID(full).bare
            return jid == account.bare ? .own(jid) : .other(jid)
        } catch {
            return .invalid(text, "invalid JID '\(JID.printable(text))': \(error)")
        }
    }
}
