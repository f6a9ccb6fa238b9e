import FoundationEssentials
import XMPPTools

import Glibc

/// Compares the generated files with those under the package root, and writes them.
enum DocFiles {
    /// What differs between the generated files and the tree.
    struct Report {
        /// Generated files absent from the tree, or with other contents.
        var write: [Documentation.File] = []
        /// Which of `write` are absent.
        var missing: Set<String> = []
        /// Files in generated directories that nothing generates any more.
        var stale: [String] = []

        var isClean: Bool { write.isEmpty && stale.isEmpty }
        var changedCount: Int { write.count + stale.count }

        /// One line per difference: `differs: man/xmpp-login.1`.
        var lines: [String] {
            write.map { (missing.contains($0.path) ? "missing: " : "differs: ") + $0.path }
                + stale.map { "stale:   " + $0 }
        }
    }

    static func compare(_ files: [Documentation.File], root: String) -> Report {
        var report = Report()
        for file in files {
            let current = FileManager.default.contents(atPath: root + "/" + file.path)
            if current == nil { report.missing.insert(file.path) }
            if current != Data(file.contents.utf8) { report.write.append(file) }
        }
        let generated = Set(files.map(\.path))
        for directory in Documentation.generatedDirectories {
            report.stale += listFiles(root: root, directory).filter { !generated.contains($0) }
        }
        return report
    }

    /// Writes what differs (atomically, mode 0644) and deletes stale files.
    static func apply(_ report: Report, root: String) {
        let manager = FileManager.default
        for file in report.write {
            let path = root + "/" + file.path
            let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
            do {
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: URL(filePath: path), options: .atomic)
                try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            } catch {
                fail("cannot write \(path): \(error)", status: 1)
            }
        }
        for stale in report.stale {
            do { try manager.removeItem(atPath: root + "/" + stale) } catch {
                fail("cannot remove \(root)/\(stale): \(error)", status: 1)
            }
        }
    }

    /// Regular files below `directory`, as paths relative to `root`, sorted.
    static func listFiles(root: String, _ directory: String) -> [String] {
        guard let entries = try? FileManager.default.subpathsOfDirectory(atPath: root + "/" + directory) else { return [] }
        return entries.filter { entry in
            var isDirectory = false
            let exists = FileManager.default.fileExists(atPath: root + "/" + directory + "/" + entry, isDirectory: &isDirectory)
            return exists && !isDirectory
        }.map { directory + "/" + $0 }.sorted()
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    static func warn(_ line: String) {
        let text = line + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        warn("xmpp-tools-docgen: " + message)
        exit(status)
    }
}
