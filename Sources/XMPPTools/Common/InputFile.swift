import Glibc
import XMPPStorage

/// An input file named on the command line, `-` for standard input: the one reader of whole
/// inputs (a vCard file, a photo, a roster file), with a size limit and the error that names it.
enum InputFile {
    /// The bytes of `path` (standard input for `-`), at most `limit`; `what` names the input in
    /// errors ("the vCard file"). A larger input, or a missing or unreadable file, is bad input.
    static func read(_ path: String, limit: Int, what: String) throws -> [UInt8] {
        if path == "-" {
            let bytes = readAll(fd: 0, limit: limit + 1)
            guard bytes.count <= limit else { throw ToolFailure(.badInput, "\(what) on standard input is larger than \(limit) bytes") }
            return bytes
        }
        switch readFile(path, limit: limit) {
        case .success(let bytes?): return bytes
        case .success(nil): throw ToolFailure(.badInput, "\(path): no such file")
        case .failure(.corrupt): throw ToolFailure(.badInput, "\(path): \(what) is larger than \(limit) bytes")
        case .failure(let error): throw ToolFailure(.badInput, error.description)
        }
    }

    private static func readFile(_ path: String, limit: Int) -> Result<[UInt8]?, StorageError> {
        do { return .success(try SecureFile.read(path, maxBytes: limit)) } catch { return .failure(error) }
    }
}
