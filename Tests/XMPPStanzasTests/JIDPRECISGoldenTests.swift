import Foundation
import XCTest
import XMPPStanzas

/// The PRECIS reference implementation's own test data (precis-i18n's `test/golden.json`,
/// vendored in Data/ with its licence: see Data/README.md), run through the JID type: every
/// UsernameCaseMapped entry as a localpart, every OpaqueString entry as a resourcepart.
final class JIDPRECISGoldenTests: XCTestCase {
    func testUsernameCaseMappedEntriesAsLocalparts() throws {
        let tally = try run(profile: "UsernameCaseMapped") { input throws(JIDError) in
            try JID(local: input, domain: "example.com").local
        } alsoRefused: { output in
            // RFC 7622 §3.3.1 refuses these in a localpart although PRECIS allows them.
            output.unicodeScalars.contains { "\"&'/:<>@".unicodeScalars.contains($0) }
        }
        XCTAssertEqual(tally.disagreements, [], tally.summary)
        XCTAssertEqual(tally.checked, 323, tally.summary)
    }

    func testOpaqueStringEntriesAsResourceparts() throws {
        let tally = try run(profile: "OpaqueString") { input throws(JIDError) in
            try JID(local: nil, domain: "example.com", resource: input).resource
        } alsoRefused: { _ in false }
        XCTAssertEqual(tally.disagreements, [], tally.summary)
        XCTAssertEqual(tally.checked, 323, tally.summary)
    }

    /// How the JID type's answers compare with the golden ones.
    struct Tally {
        var checked = 0
        /// Entries a Swift String cannot hold (lone surrogates): they never reach a JID.
        var unrepresentable = 0
        var agree = 0
        var acceptedButRefusedByPRECIS = 0
        var refusedButAcceptedByPRECIS = 0
        var normalizedDifferently = 0
        var disagreements: [String] = []

        var summary: String {
            "checked \(checked) (\(unrepresentable) unrepresentable skipped): agree \(agree), "
                + "accepted here but refused by PRECIS \(acceptedButRefusedByPRECIS), "
                + "refused here but accepted \(refusedButAcceptedByPRECIS), "
                + "normalized differently \(normalizedDifferently)"
        }
    }

    private func run(profile: String,
                     _ enforce: (String) throws(JIDError) -> String?,
                     alsoRefused: (String) -> Bool) throws -> Tally {
        var tally = Tally()
        for entry in try GoldenEntry.load() where entry.profile == profile {
            guard let input = entry.input else { tally.unrepresentable += 1; continue }
            tally.checked += 1
            let expected = entry.output.flatMap { alsoRefused($0) ? nil : $0 }
            let actual: String?
            let refusal: String?
            do throws(JIDError) {
                actual = try enforce(input)
                refusal = nil
            } catch {
                actual = nil
                refusal = error.description
            }
            let shown = input.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
            switch (expected, actual) {
            case (nil, nil):
                tally.agree += 1
            case let (e?, a?) where e == a:
                tally.agree += 1
            case (nil, let a?):
                tally.acceptedButRefusedByPRECIS += 1
                tally.disagreements.append("\(shown): accepted as \(a.debugDescription), golden: \(entry.error ?? "RFC 7622 forbids")")
            case (let e?, nil):
                tally.refusedButAcceptedByPRECIS += 1
                tally.disagreements.append("\(shown): refused (\(refusal ?? "")), golden: \(e.debugDescription)")
            case let (e?, a?):
                tally.normalizedDifferently += 1
                tally.disagreements.append("\(shown): \(a.debugDescription), golden: \(e.debugDescription)")
            }
        }
        print("\(profile): \(tally.summary)")
        return tally
    }
}

/// One entry of golden.json: `{"profile", "input", "output", "error"[, "unicode_version"]}`.
struct GoldenEntry {
    let profile: String
    /// Nil when the JSON string holds a lone surrogate, which no Swift String can.
    let input: String?
    let output: String?
    let error: String?

    static func load() throws -> [GoldenEntry] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Data/precis-golden.json")
        var text = try String(contentsOf: url, encoding: .utf8)
        // Foundation's JSON reader refuses lone surrogate escapes; mark them so the entry is
        // counted as unrepresentable instead of failing the whole file.
        text = text.replacingOccurrences(of: #"\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])"#, with: "<lone surrogate>",
                                         options: [.regularExpression, .caseInsensitive])
        let entries = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        return entries.map { e in
            let input = e["input"] as? String
            return GoldenEntry(profile: e["profile"] as? String ?? "",
                               input: input?.contains("<lone surrogate>") == true ? nil : input,
                               output: e["output"] as? String,
                               error: e["error"] as? String)
        }
    }
}
