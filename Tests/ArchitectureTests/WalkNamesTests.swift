import Foundation
import XCTest

/// docs/ARCHITECTURE.md's walks (`xmpp-roster list --json`, `xmpp-register sync FILE
/// --dry-run`) stay true to the code: every type and member they name in backquotes
/// (`RosterSession.sync`, `SyncPlan`) is declared in Sources.
final class WalkNamesTests: XCTestCase {
    private static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The walks' text: from each walk's heading to the next heading.
    private static func walks() throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        var out = "", inWalk = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { inWalk = line.hasPrefix("### One command from") || line.hasPrefix("### A batch command's plan") }
            if inWalk { out += line + "\n" }
        }
        return out
    }

    /// `Type` or `Type.member` (a call's parentheses dropped) from each backquoted span.
    private static func names(in text: String) -> [(type: String, member: String?)] {
        let parts = text.components(separatedBy: "`")
        return stride(from: 1, to: parts.count, by: 2).compactMap { index in
            var span = Substring(parts[index])
            if let paren = span.firstIndex(of: "(") { span = span[..<paren] }
            let pieces = span.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard (1...2).contains(pieces.count), let first = pieces[0].unicodeScalars.first,
                  CharacterSet.uppercaseLetters.contains(first),
                  pieces.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(CharacterSet.alphanumerics.contains) }) else { return nil }
            return (pieces[0], pieces.count == 2 ? pieces[1] : nil)
        }
    }

    func testTheWalksNameWhatTheCodeDeclares() throws {
        let walks = try Self.walks()
        XCTAssertTrue(walks.contains("xmpp-roster list --json") && walks.contains("sync FILE --dry-run"), "a walk is missing")
        // Every name that follows a declaring keyword, anywhere in Sources.
        let keywords: Set<Substring> = ["struct", "class", "enum", "protocol", "extension", "typealias", "func", "var", "let", "case"]
        var declared: Set<Substring> = []
        let directory = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: directory.path)
        while let file = files?.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            let words = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                .split { !($0.isLetter || $0.isNumber || $0 == "_") }
            for (keyword, name) in zip(words, words.dropFirst()) where keywords.contains(keyword) { declared.insert(name) }
        }
        let named = Self.names(in: walks).filter { $0.member != "swift" }  // file names
        XCTAssertGreaterThan(named.count, 40, "the walks' names were not found")
        for (type, member) in named {
            XCTAssertTrue(declared.contains(Substring(type)), "ARCHITECTURE.md's walk names `\(type)`, which Sources does not declare")
            guard let member, member != "init" else { continue }
            XCTAssertTrue(declared.contains(Substring(member)), "ARCHITECTURE.md's walk names `\(type).\(member)`, which Sources does not declare")
        }
    }
}
