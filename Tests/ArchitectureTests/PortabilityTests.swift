import Foundation
import XCTest

/// The package builds as any distribution builds a Swift package: no assembly, nothing that
/// names one processor or one library soname, no unsafe compiler or linker flags, and every C
/// library found through its system-library target (issue 25: a build tied to x86_64 and to
/// Debian 12's sonames failed on Debian 13 and on arm64).
final class PortabilityTests: XCTestCase {
    private static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// Every file under Sources/, as a path relative to the package root.
    private func sourceFiles() -> [String] {
        let sources = Self.root.appendingPathComponent("Sources")
        var found: [String] = []
        let files = FileManager.default.enumerator(atPath: sources.path)
        while let file = files?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: sources.appendingPathComponent(file).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                found.append("Sources/" + file)
            }
        }
        return found.sorted()
    }

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    func testNoAssemblySources() {
        let assembly = sourceFiles().filter { path in
            [".s", ".S", ".asm", ".sx"].contains { path.hasSuffix($0) }
        }
        XCTAssertEqual(assembly, [], "assembly ties the build to one processor")
    }

    /// No processor test (`#if arch(…)`, `__x86_64__`, `#error`) and no soname: a library is
    /// linked by name and the dynamic loader finds the version the system has.
    func testNoProcessorOrSonameInCode() throws {
        let forbidden = [
            "x86_64", "__x86_64__", "__aarch64__", "__amd64__", "__i386__", "#if arch(", "dlopen(",
        ]
        let soname = try NSRegularExpression(pattern: #"\.so\.[0-9]"#)
        let errorDirective = try NSRegularExpression(pattern: #"^[ \t]*#[ \t]*error"#, options: .anchorsMatchLines)
        var findings: [String] = []
        for path in sourceFiles() + ["Package.swift"] {
            guard let content = try? text(path) else { continue }  // binary data
            for word in forbidden where content.contains(word) {
                findings.append("\(path): \(word)")
            }
            let range = NSRange(content.startIndex..., in: content)
            if soname.firstMatch(in: content, range: range) != nil {
                findings.append("\(path): a soname")
            }
            if errorDirective.firstMatch(in: content, range: range) != nil {
                findings.append("\(path): #error")
            }
        }
        XCTAssertEqual(findings, [])
    }

    /// One way to reach the C library in a Linux-only package (ARCHITECTURE.md: it calls Glibc
    /// directly): a bare `import Glibc`, never a platform test beside it.
    func testTheCLibraryIsImportedOneWay() throws {
        var findings: [String] = []
        for path in sourceFiles() where path.hasSuffix(".swift") {
            let content = try text(path)
            for test in ["canImport(Glibc)", "canImport(Darwin)", "import Darwin", "#if os("] where content.contains(test) {
                findings.append("\(path): \(test)")
            }
        }
        XCTAssertEqual(findings, [])
    }

    /// SwiftPM's own settings only: unsafe flags are refused in packages used as dependencies,
    /// and they are where toolchain- and linker-specific options hide.
    func testPackageHasNoUnsafeFlags() throws {
        XCTAssertFalse(try text("Package.swift").contains("unsafeFlags"))
    }

    /// Each C library a modulemap links is declared in Package.swift with its pkg-config name,
    /// but libunistring and libresolv, which ship no .pc file.
    func testSystemLibrariesComeThroughPkgConfig() throws {
        let manifest = try text("Package.swift")
        let pattern = try NSRegularExpression(pattern: #"\.systemLibrary\(name: "(\w+)"(, pkgConfig: "([^"]+)")?"#)
        var declared: [String: String?] = [:]
        for match in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            guard let name = Range(match.range(at: 1), in: manifest) else { continue }
            declared[String(manifest[name])] = Range(match.range(at: 3), in: manifest).map { String(manifest[$0]) }
        }
        XCTAssertEqual(declared["CLibXML2"], "libxml-2.0", "XMLTree parses with libxml2")
        XCTAssertEqual(declared["CSQLite3"], "sqlite3")
        for (name, pkgConfig) in declared.sorted(by: { $0.key < $1.key }) where name != "CResolv" {
            XCTAssertNotNil(pkgConfig, "\(name) has no pkg-config name")
        }
        for (name, _) in declared {
            let modulemap = try text("Sources/\(name)/module.modulemap")
            XCTAssertTrue(modulemap.contains("link \""), "\(name)'s modulemap links nothing")
        }
    }
}
