import Glibc
import PNGImage
import XMPPStorage

/// Where `set` and `resize` read images and `get` and `resize` write them: files, or the
/// standard streams for `-`.
enum ImageFiles {
    /// Most bytes read from standard input (a file is streamed instead, never held whole).
    static let maxStdinBytes = 64 << 20

    /// Resizes the image at `path` (`-`: standard input) with `options`.
    static func resize(_ path: String, options: ResizeOptions) throws -> [UInt8] {
        guard path == "-" else {
            return try naming(path) { () throws(PNGImageError) in try AvatarPipeline.resize(file: path, options: options) }
        }
        guard isatty(0) != 1 else {
            throw ToolFailure(.usage, "IMAGE is - but standard input is a terminal: pipe an image in, or name a file")
        }
        let bytes = readAll(fd: 0, limit: maxStdinBytes + 1)
        guard bytes.count <= maxStdinBytes else {
            throw ToolFailure(.badInput, "standard input holds more than \(maxStdinBytes >> 20) MB; give the image as a file")
        }
        return try naming(path) { () throws(PNGImageError) in try AvatarPipeline.resize(data: bytes, options: options) }
    }

    /// Runs `body` on the image at `path`; its errors name the file (`standard input` for `-`).
    static func naming<T>(_ path: String, _ body: () throws(PNGImageError) -> T) throws(ToolFailure) -> T {
        do { return try body() } catch {
            let failure = ErrorMapping.failure(for: error)
            // An I/O error names its path already; option errors are not the file's.
            switch error {
            case .io, .invalidOptions: throw failure
            default: throw ToolFailure(failure.code, (path == "-" ? "standard input" : path) + ": " + failure.message)
            }
        }
    }

    /// Whether `path` means standard output.
    static func isStdout(_ path: String?) -> Bool { path == nil || path == "-" }

    /// Refuses binary output to a terminal, and `--json` together with binary on standard output.
    static func checkBinaryDestination(_ path: String?, json: Bool) throws(ToolFailure) {
        guard isStdout(path) else { return }
        if json {
            throw ToolFailure(.usage, "--json prints a description on standard output; write the image with -o FILE")
        }
        if Output.stdoutIsTTY {
            throw ToolFailure(.usage, "refusing to write binary image data to a terminal: give -o FILE or redirect (> image.png)")
        }
    }
}
