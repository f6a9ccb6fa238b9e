import XMPPStorage

extension Output {
    /// Writes data a user asked for (an image, a photo) to standard output when `path` is nil
    /// or `-`, otherwise atomically to the file, with the mode any new file gets.
    static func write(_ bytes: [UInt8], toFileOrStdout path: String?) throws(ToolFailure) {
        guard let path, path != "-" else {
            Output.bytes(bytes)
            return
        }
        do {
            try SecureFile.write(bytes, to: path, mode: .shared)
        } catch {
            throw ToolFailure(.failed, "cannot write \(error)")
        }
    }
}
