#if canImport(Glibc)
import Glibc
#endif

/// A program of the suite's own that the tools run (never found through PATH): beside the
/// running program (a build directory) or in ../libexec/xmpp-tools/ from it (what make install
/// and the Debian package install).
public enum LibexecProgram {
    /// The path of `name`, or nil when it is in neither place.
    public static func locate(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let bytes = buffer[0..<n].map { UInt8(bitPattern: $0) }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let directory = String(decoding: bytes[..<slash], as: UTF8.self)
        return [directory + "/" + name, directory + "/../libexec/xmpp-tools/" + name].first { access($0, X_OK) == 0 }
    }
}
