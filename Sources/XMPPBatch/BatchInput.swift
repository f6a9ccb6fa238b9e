import CryptoPrimitives
import Glibc
import XMPPStorage

/// The deterministic pieces derived from a batch's input: the journal identity and the shard of
/// each row (`BatchInputStream` reads it).
public enum BatchInput {
    /// The shard (0-based) of a row: SHA-256 of its bare JID, first 8 bytes, modulo `count`.
    /// The same on every machine and every run, so N processes split one CSV without overlap.
    static func shard(of key: String, count: Int) -> Int {
        let digest = Crypto.hash(.sha256, Array(key.utf8))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % UInt64(count))
    }

    /// What makes two runs the same batch: the input bytes and the options that shape the plan.
    static func identity(inputSHA256: [UInt8], configuration: BatchConfiguration) -> BatchIdentity {
        var options: Set<BatchIdentity.Option> = []
        if configuration.generatePasswords { options.insert(.generatePasswords) }
        if configuration.admin { options.insert(.admin) }
        if configuration.invite { options.insert(.invite) }
        if configuration.sharedGroups { options.insert(.sharedGroups) }
        return .batch(mode: configuration.mode.identityMode, domain: configuration.domain, shard: configuration.shard?.description,
                      options: options, inputSHA256: Hex.encode(inputSHA256), directoryMap: configuration.directoryMap?.description)
    }

    /// Where the journal lives: next to the report, or in `stateDirectory`/batch/ (the state
    /// directory, `$XDG_STATE_HOME/xmpp-tools`).
    static func journalPath(identity: BatchIdentity, report: String?, stateDirectory: String) throws(BatchError) -> String {
        if let report { return report + ".journal" }
        let directory = stateDirectory + "/batch"
        do {
            try SecureFile.makeDirectory(stateDirectory)
            try SecureFile.makeDirectory(directory)
        } catch { throw .stateDirectory(error) }
        let name = String(Hex.encode(Crypto.hash(.sha256, Array(identity.text.utf8))).prefix(24))
        return directory + "/" + name + ".sqlite3"
    }

    /// A fresh password: 24 letters and digits (about 140 bits), nothing a shell or spreadsheet
    /// could take for an option or a formula, and none of the characters people misread on a
    /// printed slip (O and 0, l, I and 1).
    static func generatePassword() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
        let unbiased = 256 - 256 % alphabet.count  // bytes at or above this would favour the first letters
        var out = ""
        while out.count < 24 {
            for byte in Crypto.randomBytes(32) where Int(byte) < unbiased && out.count < 24 {
                out.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return out
    }
}

extension BatchMode {
    /// The mode as the journal records it.
    var identityMode: BatchIdentity.Mode {
        switch self {
        case .create: .create
        case .delete: .delete
        case .passwd: .passwd
        }
    }
}
