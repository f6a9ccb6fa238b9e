#if canImport(Glibc)
import Glibc
#endif
import XMPPStorage

/// Reading input files and writing output files named on the command line ('-' is stdin/stdout).
enum VCardFiles {
    /// The bytes of `path` (or stdin for '-'), at most `limit`; a larger input is bad input.
    static func read(_ path: String, limit: Int, what: String) throws -> [UInt8] {
        if path == "-" {
            let bytes = readAll(fd: 0, limit: limit + 1)
            guard bytes.count <= limit else { throw ToolFailure(.badInput, "\(what) on standard input is larger than \(limit) bytes") }
            return bytes
        }
        switch readFile(path, limit: limit) {
        case .success(let bytes?): return bytes
        case .success(nil): throw ToolFailure(.badInput, "\(path): no such file")
        case .failure(.corrupt): throw ToolFailure(.badInput, "\(path): \(what) larger than \(limit) bytes")
        case .failure(let error): throw ToolFailure(.badInput, error.description)
        }
    }

    private static func readFile(_ path: String, limit: Int) -> Result<[UInt8]?, StorageError> {
        do { return .success(try SecureFile.read(path, maxBytes: limit)) } catch { return .failure(error) }
    }

    /// Writes `bytes` to `path` (stdout for '-') through a temporary file and a rename, mode 0644.
    static func write(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            Output.bytes(bytes)
            return
        }
        var template = Array((path + ".tmp.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ToolFailure(.failed, "cannot write \(path): \(String(cString: strerror(errno)))") }
        let temp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = fchmod(fd, 0o644) == 0
        var offset = 0
        while ok && offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ok = false } else { offset += n }
        }
        let reason = String(cString: strerror(errno))
        ok = close(fd) == 0 && ok
        guard ok, rename(temp, path) == 0 else {
            _ = unlink(temp)
            throw ToolFailure(.failed, "cannot write \(path): \(reason)")
        }
    }
}
