import Foundation
import XCTest

/// README.md's list of build dependencies is the one scripts/install-deps installs
/// (scripts/apt-packages.d/build.txt), and it covers every Debian package Package.swift's
/// system libraries name: a new user following the README builds without guessing.
final class BuildDependencyTests: XCTestCase {
    private static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The packages of build.txt: one a line, `#` comments.
    private func installed() throws -> Set<String> {
        var packages: Set<String> = []
        for line in try text("scripts/apt-packages.d/build.txt").split(separator: "\n") {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            packages.formUnion(content.split(separator: " ").map(String.init))
        }
        return packages
    }

    /// The words in backticks after "Build dependencies" in README.md, up to the paragraph's end.
    private func documented() throws -> Set<String> {
        let readme = try text("README.md")
        guard let start = readme.range(of: "Build dependencies") else {
            XCTFail("README.md names no build dependencies")
            return []
        }
        let paragraph = readme[start.upperBound...].components(separatedBy: "\n\n")[0]
        let quoted = paragraph.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map(\.element)
        return Set(quoted.filter { !$0.contains("/") }.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) })
    }

    func testReadmeListsWhatInstallDepsInstalls() throws {
        XCTAssertEqual(try documented().sorted(), try installed().sorted())
    }

    /// Each package README.md's "Build and install" table names for a command (the first
    /// backquoted list of its row) is one scripts/install-deps installs, so a machine set up by
    /// the scripts runs every command the README shows (issue 41: `make` and `make deb`'s
    /// dpkg-dev were nowhere in the README).
    func testReadmeCommandPackagesAreInstalledByInstallDeps() throws {
        let readme = try text("README.md")
        var rows: [String: [String]] = [:]
        for line in readme.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, cells[1].hasPrefix("`") else { continue }
            let packages = cells[1].split(separator: "`", omittingEmptySubsequences: false)[1]
            rows[cells[0]] = packages.split(separator: " ").map(String.init)
        }
        XCTAssertEqual(rows["`make deb`"], ["make", "binutils", "dpkg-dev", "lintian"], "\(rows)")
        XCTAssertEqual(rows["`make`"], ["make"], "\(rows)")
        var installable: Set<String> = []
        for list in try FileManager.default.contentsOfDirectory(atPath: Self.root.path + "/scripts/apt-packages.d")
        where list.hasSuffix(".txt") {
            for line in try text("scripts/apt-packages.d/" + list).split(separator: "\n") {
                let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                installable.formUnion(content.split(separator: " ").map(String.init))
            }
        }
        let base = try text("scripts/install-deps").components(separatedBy: "base=(")[1].components(separatedBy: "\n)")[0]
        for line in base.split(separator: "\n") {
            installable.formUnion((line.split(separator: "#").first ?? "").split(separator: " ").map(String.init))
        }
        for (command, packages) in rows {
            XCTAssertEqual(Set(packages).subtracting(installable).sorted(), [], "\(command) needs what install-deps does not install")
        }
    }

    func testEverySystemLibraryProviderIsABuildDependency() throws {
        let manifest = try text("Package.swift")
        let pattern = try NSRegularExpression(pattern: #"\.apt\(\[([^\]]*)\]\)"#)
        var providers: Set<String> = []
        for match in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            guard let list = Range(match.range(at: 1), in: manifest) else { continue }
            providers.formUnion(manifest[list].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) })
        }
        XCTAssertFalse(providers.isEmpty)
        XCTAssertEqual(providers.subtracting(try installed()).sorted(), [])
    }
}
