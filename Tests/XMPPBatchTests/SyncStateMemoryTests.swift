import Foundation
import Glibc
import XCTest
import XMPPStanzas
@testable import XMPPBatch

/// Sync's state of many accounts is read and written a line at a time, never as one JSON
/// document (a million accounts held so cost 1.1 GB: docs/DESIGN-NOTES.md). In a child process
/// (`ChildMemory`), on a generated state of 150,000 accounts (32 MB): a deletion outside sync
/// (`delete --admin`: the state copied with one line changed) must not grow with the accounts at
/// all, and a load and a save must cost no more than the accounts' dictionary — which is what a
/// state built in memory costs, measured first in the same child. Reading the file whole, or
/// building the document to write it, adds the file's size or several times it.
final class SyncStateMemoryTests: XCTestCase {
    private static let accounts = 150_000
    /// What a deletion outside sync may add: buffers, not the accounts.
    private static let streamCeilingKiB = 16 * 1024
    /// What a load and a save may add over the same accounts built in memory (the dictionary
    /// grows by doubling, so its peak varies with the order of allocations).
    private static let overBuiltCeilingKiB = 40 * 1024
    private static let ballastBytes = 512 << 20

    override class func setUp() {
        super.setUp()
        let environment = ProcessInfo.processInfo.environment
        guard let directory = environment["XT_SYNC_STATE_MEMORY_DIR"], let report = environment["XT_SYNC_STATE_MEMORY_REPORT"] else { return }
        // The child: measure each step's peak over the start, tell the parent, and end before any test runs.
        let start = ChildMemory.residentKiB()
        var lines: [String] = []
        do {
            try SyncState.noteDeletedOutside(try JID("user7@example.org"), how: "by hand", stateDirectory: directory)
            lines.append("\(ChildMemory.ownPeakKiB() - start)")
            do {
                let built = built()
                lines.append("\(ChildMemory.ownPeakKiB() - start)")
                withExtendedLifetime(built) {}
            }
            let state = try SyncState.load(domain: "example.org", stateDirectory: directory)
            try state.save(stateDirectory: directory)
            lines.append("\(ChildMemory.ownPeakKiB() - start)")
            lines.append("\(state.accounts.count) \(state.accounts["user7@example.org"]?.standing.rawValue ?? "-")")
        } catch {
            lines.append("error: \(error)")
        }
        try? (lines.joined(separator: "\n") + "\n").write(toFile: report, atomically: true, encoding: .utf8)
        exit(0)
    }

    func testALargeStateIsNeverHeldAsOneDocument() throws {
        let directory = try scratchDirectory("sync-state-memory")
        let report = directory + "/report"
        try writeState(in: directory)
        ChildMemory.touchAndFree(bytes: Self.ballastBytes)
        XCTAssertGreaterThanOrEqual(ChildMemory.processPeakKiB(), Self.ballastBytes / 1024)
        XCTAssertEqual(try ChildMemory.run(test: "XMPPBatchTests.SyncStateMemoryTests/testALargeStateIsNeverHeldAsOneDocument",
                                           environment: ["XT_SYNC_STATE_MEMORY_DIR": directory, "XT_SYNC_STATE_MEMORY_REPORT": report]), 0)
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, "\(lines)")
        XCTAssertEqual(lines.last, "\(Self.accounts) deleted")
        let peaks = lines.dropLast().compactMap { Int($0) }
        guard peaks.count == 3, !ChildMemory.underAddressSanitizer else { return }
        let (deletion, built, loadAndSave) = (peaks[0], peaks[1], peaks[2])
        print("sync state of \(Self.accounts) accounts: deletion outside sync +\(deletion / 1024) MiB, "
              + "built in memory +\(built / 1024) MiB, load and save +\(loadAndSave / 1024) MiB")
        XCTAssertLessThanOrEqual(deletion, Self.streamCeilingKiB, "a deletion outside sync rose \(deletion / 1024) MiB")
        XCTAssertLessThanOrEqual(loadAndSave, built + Self.overBuiltCeilingKiB,
                                 "a load and a save rose \(loadAndSave / 1024) MiB, the accounts built in memory \(built / 1024) MiB")
    }

    /// The accounts the file holds, built in memory.
    private static func built() -> SyncState {
        var state = SyncState(domain: "example.org")
        for i in 0..<accounts { state.accounts["user\(i)@example.org"] = account(i) }
        return state
    }

    private static func account(_ i: Int) -> SyncState.Account {
        SyncState.Account(fullname: "Zoé Müller \(i)", email: "user\(i)@mail.example.org", note: "created by sync on 2026-12-0\(i % 9 + 1)")
    }

    /// The state of `accounts` accounts in the line format, written a block at a time.
    private func writeState(in directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory + "/sync", withIntermediateDirectories: true)
        chmod(directory, 0o700)
        chmod(directory + "/sync", 0o700)
        let path = SyncState.path(domain: "example.org", stateDirectory: directory)
        guard let file = fopen(path, "w") else { throw CocoaError(.fileWriteUnknown) }
        defer { fclose(file) }
        fchmod(fileno(file), 0o600)
        var block = #"{"format":"xmpp-tools sync state 2","domain":"example.org"}"# + "\n"
        for i in 0..<Self.accounts {
            block += String(decoding: SyncState.line("user\(i)@example.org", Self.account(i)), as: UTF8.self)
            if block.utf8.count > 1 << 16 {
                fputs(block, file)
                block = ""
            }
        }
        fputs(block, file)
    }
}
