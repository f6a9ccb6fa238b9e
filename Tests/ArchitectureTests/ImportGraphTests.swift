import Foundation
import XCTest

/// The modules import exactly what docs/ARCHITECTURE.md §1 says they do: a module that starts
/// importing one it should not (a service reaching for storage, a payload module reaching for
/// the network) fails here, and so does a document that no longer tells the truth.
final class ImportGraphTests: XCTestCase {
    private static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// Toolchain and C-runtime modules, which every layer may use. Not Foundation: linked
    /// statically it was a sixth of the program and a megabyte of every start-up (a library
    /// module that imports it must be listed as doing so, which the document says it may not).
    private static let system: Set<String> = ["Glibc", "Synchronization", "Dispatch"]

    /// The `Module: Import Import…` lines between `<!-- layers -->` and `<!-- /layers -->`.
    private func documentedGraph() throws -> [String: Set<String>] {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        guard let start = text.range(of: "<!-- layers -->"), let end = text.range(of: "<!-- /layers -->") else {
            XCTFail("docs/ARCHITECTURE.md has no <!-- layers --> block")
            return [:]
        }
        var graph: [String: Set<String>] = [:]
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("```") else { continue }
            let module = String(line[..<colon])
            graph[module] = Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
        }
        return graph
    }

    /// Every `import X` (also `@testable import`, `@_exported import`) in a module's Swift files.
    private func imports(of module: String) throws -> Set<String> {
        let directory = Self.root.appendingPathComponent("Sources/" + module)
        var found: Set<String> = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                      words[..<index].allSatisfy({ $0.hasPrefix("@") }) else { continue }
                let name = String(words[index + 1])
                if !Self.system.contains(name) { found.insert(name) }
            }
        }
        return found
    }

    /// The Swift library modules: folders of Sources/ with Swift files, but the executables and fuzz targets.
    private func libraryModules() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
        return names.filter { name in
            guard !name.hasPrefix("xmpp-"), !name.hasPrefix("Fuzz") else { return false }
            let files = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources/" + name).path)
            while let file = files?.nextObject() as? String { if file.hasSuffix(".swift") { return true } }
            return false
        }.sorted()
    }

    func testEveryLibraryModuleImportsExactlyWhatTheDocumentSays() throws {
        let graph = try documentedGraph()
        let modules = try libraryModules()
        XCTAssertEqual(Set(graph.keys), Set(modules), "the layers block must list every library module, and only those")
        for module in modules {
            let actual = try imports(of: module)
            let documented = graph[module] ?? []
            XCTAssertEqual(actual.subtracting(documented).sorted(), [], "\(module) imports what docs/ARCHITECTURE.md does not allow")
            XCTAssertEqual(documented.subtracting(actual).sorted(), [], "docs/ARCHITECTURE.md lists imports \(module) no longer makes")
        }
    }

    func testTheGraphHasNoCycle() throws {
        let graph = try documentedGraph()
        var state: [String: Bool] = [:]  // false: on the current path; true: done
        func visit(_ module: String, _ path: [String]) {
            if state[module] == true { return }
            if state[module] == false { return XCTFail("import cycle: \((path + [module]).joined(separator: " → "))") }
            state[module] = false
            for next in graph[module] ?? [] { visit(next, path + [module]) }
            state[module] = true
        }
        for module in graph.keys.sorted() { visit(module, []) }
    }

    func testExecutablesAreOneCallIntoXMPPTools() throws {
        for tool in ["xmpp-register", "xmpp-login", "xmpp-roster", "xmpp-vcard", "xmpp-avatar", "xmpp-adhoc"] {
            XCTAssertEqual(try imports(of: tool), ["XMPPTools"], tool)
        }
    }
}
