import Glibc

/// What a fuzz target does when built without libFuzzer (no `-DXT_FUZZ`): runs each input file (directories
/// are walked one level deep) through the same entry point libFuzzer would call, so every
/// target doubles as a corpus replayer and a regression runner in plain builds.
///
/// `FuzzXML corpus/ crash-123` replays files; arguments starting with `-` (libFuzzer flags) are
/// ignored; with no file arguments one input is read from stdin. A crash aborts the process, as
/// it would under libFuzzer; otherwise it prints `NAME: replayed N inputs` to stderr and exits 0.
public enum FuzzReplay {
    /// Replays the inputs named on the command line through `body`, then exits.
    public static func main(name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Never {
        exit(replay(name: name, arguments: Array(CommandLine.arguments.dropFirst()), body))
    }

    /// Replays the inputs named in `arguments` (without the program name) through `body`;
    /// returns the exit status.
    public static func replay(name: String, arguments: [String], _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Int32 {
        var paths: [String] = []
        for argument in arguments where !argument.hasPrefix("-") {
            if let entries = directoryEntries(argument) {
                paths += entries.sorted().map { argument + "/" + $0 }
            } else {
                paths.append(argument)
            }
        }
        var count = 0
        if paths.isEmpty {
            readAll(fd: 0).withUnsafeBufferPointer { body($0) }
            count = 1
        }
        for path in paths {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                report("\(name): cannot open \(path)")
                return 2
            }
            let bytes = readAll(fd: fd)
            close(fd)
            bytes.withUnsafeBufferPointer { body($0) }
            count += 1
        }
        report("\(name): replayed \(count) input\(count == 1 ? "" : "s")")
        return 0
    }

    /// Regular files in `path` (not recursing), or nil when `path` is not a directory.
    private static func directoryEntries(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            var info = stat()
            if stat(path + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { names.append(name) }
        }
        return names
    }

    private static func readAll(fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { bytes += buffer[0..<n]; continue }
            if n < 0 && errno == EINTR { continue }
            return bytes
        }
    }

    private static func report(_ line: String) {
        let text = Array((line + "\n").utf8)
        _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Stops the process with `message` when an invariant the fuzz target checks is broken
    /// (libFuzzer records the input as a crash).
    public static func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
        guard !condition else { return }
        report("invariant broken: " + message())
        abort()
    }
}
