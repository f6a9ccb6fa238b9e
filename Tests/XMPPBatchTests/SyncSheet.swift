@testable import XMPPBatch

/// A CSV read as the sync tests read theirs: domain x.org, passwords generated, files (avatars)
/// found below `baseDirectory`.
func syncSheet(_ csv: String, baseDirectory: String = "/") throws -> BatchSheet {
    var configuration = BatchConfiguration()
    configuration.domain = "x.org"
    configuration.generatePasswords = true
    return try BatchSheet(input: Array(csv.utf8), name: "test", configuration: configuration, baseDirectory: baseDirectory)
}

extension BatchSheet {
    /// The rows that passed the checks, in the file's order.
    var validRows: [BatchRow] { rows.compactMap { if case .valid(let r) = $0 { return r } else { return nil } } }
}
